// ModelOutput: where a model codec sends a model, JSON bytes or a JSONValue. The choices made per
// model (a class's own mapping, a cluster's case and discriminator, a draft, a `SelectiveEncoding`
// model's properties) are written once, generic over the output; each output then takes the
// model's plan: `JSONWriter` writes its bytes, `JSONTree` asks its members for their values.
// Those of the generic functions that a nested model's write runs are `@inline(__always)`: in a
// generic codec class the specializer left them unspecialised for `JSONWriter` (a witness call and
// metadata lookups per nested model); inlined into the codec's `write(_:into:)`, the output is
// concrete again.

/// Takes a model as one object, written through its plan.
protocol ModelOutput {
    /// Takes the model at `model` through `plan`.
    /// - Parameters:
    ///   - discriminator: A cluster's key and the model's case, first unless the mapping has the key.
    ///   - filter: The members written (a `@JSONModel` `SelectiveEncoding` model's choice); nil:
    ///     the plan's own.
    mutating func model(_ model: UnsafeRawPointer, plan: MappingPlan, discriminator: (key: String, value: String)?,
                        choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?) throws
}

extension JSONWriter: ModelOutput {
    mutating func model(_ model: UnsafeRawPointer, plan: MappingPlan, discriminator: (key: String, value: String)?,
                        choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?) throws {
        try plan.write(model, discriminator: discriminator, choosing: filter, into: &self)
    }
}

/// A model as a `JSONValue`: what a `JSONWriter` with the default options would write, built
/// from the values of the plan's members (their codecs' `encode`), no bytes written or read back.
struct JSONTree: ModelOutput {
    /// The model taken last.
    private(set) var value: JSONValue = .null
    /// Whether a nil property is left out, as `EncodingOptions()` does.
    private let omitsNil = EncodingOptions().nilProperties == .omit

    mutating func model(_ model: UnsafeRawPointer, plan: MappingPlan, discriminator: (key: String, value: String)?,
                        choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?) throws {
        var object = try plan.encodeRoot.object(model, choosing: filter, omitsNil: omitsNil)
        if let discriminator = plan.addedDiscriminator(discriminator) { object[discriminator.key] = .string(discriminator.value) }
        value = .object(object)
    }

    /// `value` written by `write` into a tree.
    static func value<V>(of value: V, _ write: (V, inout JSONTree) throws -> Void) throws -> JSONValue {
        var tree = JSONTree()
        try write(value, &tree)
        return tree.value
    }
}
