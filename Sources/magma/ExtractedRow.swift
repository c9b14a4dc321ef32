import Magma

/// One extracted record: up to 32 fields, each the JSON value its key path held (through its
/// transformer), nil when absent or null. Stored properties, not an array, so that the mapping
/// engine writes each through its stored-property offset, as it does a declared model's.
struct ExtractedRow: JSONModel {
    var f0: JSONValue?
    var f1: JSONValue?
    var f2: JSONValue?
    var f3: JSONValue?
    var f4: JSONValue?
    var f5: JSONValue?
    var f6: JSONValue?
    var f7: JSONValue?
    var f8: JSONValue?
    var f9: JSONValue?
    var f10: JSONValue?
    var f11: JSONValue?
    var f12: JSONValue?
    var f13: JSONValue?
    var f14: JSONValue?
    var f15: JSONValue?
    var f16: JSONValue?
    var f17: JSONValue?
    var f18: JSONValue?
    var f19: JSONValue?
    var f20: JSONValue?
    var f21: JSONValue?
    var f22: JSONValue?
    var f23: JSONValue?
    var f24: JSONValue?
    var f25: JSONValue?
    var f26: JSONValue?
    var f27: JSONValue?
    var f28: JSONValue?
    var f29: JSONValue?
    var f30: JSONValue?
    var f31: JSONValue?

    /// The command line's fields, set once before the first record is read: Magma compiles a
    /// model's mapping on its first use and keeps it for the process, so every reader (the
    /// NDJSON batches, the one-thread stream, the library's parallel stream) reads this one.
    nonisolated(unsafe) static var commandLineMapping: JSONMapping<ExtractedRow>?

    static var jsonMapping: JSONMapping<ExtractedRow> {
        guard let commandLineMapping else { preconditionFailure("the fields are read before the command line set them") }
        return commandLineMapping
    }

    /// The most fields one run extracts.
    static let capacity = 32

    /// The fields, in order.
    nonisolated(unsafe) static let slots: [WritableKeyPath<ExtractedRow, JSONValue?>] = [
        \.f0, \.f1, \.f2, \.f3, \.f4, \.f5, \.f6, \.f7, \.f8, \.f9, \.f10, \.f11, \.f12, \.f13, \.f14, \.f15, \.f16, \.f17, \.f18, \.f19, \.f20, \.f21, \.f22, \.f23, \.f24, \.f25, \.f26, \.f27, \.f28, \.f29, \.f30, \.f31,
    ]
}
