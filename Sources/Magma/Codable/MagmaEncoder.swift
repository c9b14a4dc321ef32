import Foundation

/// A drop-in replacement for Foundation's `JSONEncoder`: the same API and, with `.sortedKeys`,
/// byte-identical output, written through Magma's writer.
///
/// ```swift
/// let encoder = MagmaEncoder()          // was: JSONEncoder()
/// encoder.outputFormatting = [.sortedKeys]
/// let data = try encoder.encode(issues)
/// ```
///
/// Deliberate differences:
/// - Without `.sortedKeys`, members are written in the order they were encoded. `JSONEncoder`
///   writes them in the order of a `Dictionary`, which changes from run to run; the same set of
///   members is written either way.
/// - A key encoded twice in one container keeps the place of its first encoding (and the last value).
/// - A `.custom` key strategy is called for the same keys with the same paths, but as each key is
///   written, before its value is encoded; `JSONEncoder` calls it after.
/// - Values are written as `encode(to:)` hands them over. An `encode(to:)` that writes to a
///   container after moving on from it (a nested container reopened, or asked for again at the
///   same key), or that uses `superEncoder`, is encoded again from the start through a tree of
///   the values, with JSONEncoder's semantics: its `encode(to:)` implementations then run twice.
/// - ``DateEncodingStrategy`` is Magma's own enum with `JSONEncoder`'s cases, so that
///   `.formatted(formatter)` keeps its formatter: its pattern is printed from bytes where Magma's
///   printer agrees with it (the same text), and by the formatter otherwise.
///
/// Numbers, strings, escapes, pretty printing and every strategy are written as `JSONEncoder`
/// writes them (a test compares the bytes on models of every kind).
///
/// A large output is not copied: from 1 MB on, the returned `Data` owns the buffer it was written
/// into. From 4 MB on that buffer is an anonymous mapping advised for transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`; with the kernel's default `madvise` setting, the kernel then backs
/// it with 2 MB pages where it has them), so that writing it takes one page fault per 2 MB rather
/// than per 4 KB. `JSONAdapter`'s encodes write through the same buffer.
public final class MagmaEncoder: @unchecked Sendable {
    /// Output options: `JSONEncoder`'s own type (`.sortedKeys`, `.prettyPrinted`, `.withoutEscapingSlashes`).
    public typealias OutputFormatting = JSONEncoder.OutputFormatting
    /// The strategies for `Data`: `JSONEncoder`'s own type.
    public typealias DataEncodingStrategy = JSONEncoder.DataEncodingStrategy
    /// The strategies for infinities and NaN: `JSONEncoder`'s own type.
    public typealias NonConformingFloatEncodingStrategy = JSONEncoder.NonConformingFloatEncodingStrategy
    /// The strategies for keys: `JSONEncoder`'s own type.
    public typealias KeyEncodingStrategy = JSONEncoder.KeyEncodingStrategy

    /// How the output is laid out. Default `[]`: compact.
    public var outputFormatting: OutputFormatting = []
    /// How dates are encoded. Default `.deferredToDate`.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` is encoded. Default `.base64`.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// How infinities and NaN are encoded. Default `.throw`.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
    /// How coding keys become JSON keys. Default `.useDefaultKeys`.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// Context for `encode(to:)` implementations, as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with `JSONEncoder`'s defaults.
    public init() {}

    /// Creates an encoder configured as `encoder` is (formatting, strategies, user info).
    /// - Parameter encoder: The `JSONEncoder` whose configuration to copy.
    public convenience init(_ encoder: JSONEncoder) {
        self.init()
        outputFormatting = encoder.outputFormatting
        dateEncodingStrategy = DateEncodingStrategy(encoder.dateEncodingStrategy)
        dataEncodingStrategy = encoder.dataEncodingStrategy
        nonConformingFloatEncodingStrategy = encoder.nonConformingFloatEncodingStrategy
        keyEncodingStrategy = encoder.keyEncodingStrategy
        userInfo = encoder.userInfo
    }

    /// Encodes `value` as JSON.
    /// - Parameter value: The value to encode.
    /// - Returns: The JSON text, UTF-8.
    /// - Throws: `EncodingError`, as `JSONEncoder` throws it (an infinite or NaN float without
    ///   `.convertToString`, a value that encodes nothing, any error of an `encode(to:)`).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try encode(value, formatting: outputFormatting)
    }

    /// `encode(_:)` laid out with `formatting` in place of ``outputFormatting`` (an NDJSON line's).
    func encode<T: Encodable>(_ value: T, formatting: OutputFormatting) throws -> Data {
        let settings = EncoderSettings(self)
        var buffers = spareLock.withLock { () -> StreamBuffers? in
            defer { spare = nil }
            return spare
        } ?? StreamBuffers(formatting: formatting)
        if buffers.formatting != formatting { buffers = StreamBuffers(formatting: formatting) }
        defer { keep(&buffers) }
        if let data = try StreamEncoder.encode(value, settings: settings, buffers: buffers) { return data }
        return try treeEncode(value, settings: settings, formatting: formatting)
    }

    /// Encodes a value of a type that needs a configuration to encode, as `JSONEncoder` does.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - configuration: Handed to `encode(to:configuration:)`.
    /// - Returns: The JSON text, UTF-8.
    /// - Throws: `EncodingError`, as ``encode(_:)`` throws it.
    public func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        do {
            return try encode(ConfiguredValue(value: value, configuration: configuration))
        } catch EncodingError.invalidValue(let wrapper, let context) where wrapper is ConfiguredValue<T> {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: context.codingPath, debugDescription: "Top-level \(T.self) did not encode any values.", underlyingError: context.underlyingError))
        }
    }

    /// Encodes a value of a type that needs a configuration, which `configuration` provides.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - configuration: The type whose `encodingConfiguration` is handed to `encode(to:configuration:)`.
    /// - Returns: The JSON text, UTF-8.
    /// - Throws: `EncodingError`, as ``encode(_:)`` throws it.
    public func encode<T: EncodableWithConfiguration, C: EncodingConfigurationProviding>(_ value: T, configuration: C.Type) throws -> Data
        where T.EncodingConfiguration == C.EncodingConfiguration {
        try encode(value, configuration: C.encodingConfiguration)
    }

    /// The buffers of the last stream encode, for the next (nil while an encode uses them).
    private(set) var spare: StreamBuffers?
    private let spareLock = Lock()

    /// Keeps `buffers` for the next encode, unless an encoder of the one that used them is still
    /// alive (an `encode(to:)` kept it) or their writer's buffer is large (a large output's is
    /// handed over to its `Data`, and the writer's replaced by a small one).
    private func keep(_ buffers: inout StreamBuffers) {
        guard isKnownUniquelyReferenced(&buffers), buffers.state.pointee.writer.capacity <= 2 * JSONWriter.handOverSize else { return }
        let kept = buffers
        spareLock.withLock { spare = kept }
    }

    /// Encodes through a tree of the values: JSONEncoder's semantics for what StreamEncoder cannot
    /// take (containers reopened, `superEncoder`, too deep).
    func treeEncode<T: Encodable>(_ value: T, settings: EncoderSettings, formatting: OutputFormatting) throws -> Data {
        let encoder = TreeEncoder(settings: settings, owner: nil, key: nil)
        guard let top = try encoder.wrapGeneric(value, nil) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        // The stream writes the tree, keys as they are: one layout for both. A tree it cannot
        // take is too deep (nothing in a tree reopens a container).
        guard let data = try StreamEncoder.encode(top, settings: settings.keysAsGiven, formatting: formatting) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
        }
        return data
    }
}

/// A value encoded with its configuration: `encode(_:configuration:)` through the one encode path.
private struct ConfiguredValue<T: EncodableWithConfiguration>: Encodable {
    let value: T
    let configuration: T.EncodingConfiguration
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder, configuration: configuration) }
}

/// An encoder's options, fixed for one encode.
struct EncoderSettings {
    let dates: MagmaEncoder.DateEncodingStrategy
    /// The `.formatted` strategy's formatter, its pattern compiled.
    let formattedDates: FormatterDates?
    let data: JSONEncoder.DataEncodingStrategy
    let floats: JSONEncoder.NonConformingFloatEncodingStrategy
    private(set) var keys: JSONEncoder.KeyEncodingStrategy
    private(set) var defaultKeys: Bool
    let userInfo: [CodingUserInfoKey: Any]

    init(_ e: MagmaEncoder) {
        dates = e.dateEncodingStrategy
        if case .formatted(let formatter) = dates { formattedDates = FormatterDates(formatter) } else { formattedDates = nil }
        data = e.dataEncodingStrategy
        floats = e.nonConformingFloatEncodingStrategy
        keys = e.keyEncodingStrategy
        if case .useDefaultKeys = e.keyEncodingStrategy { defaultKeys = true } else { defaultKeys = false }
        userInfo = e.userInfo
    }

    /// These settings with keys written as they are (a tree's, already converted).
    var keysAsGiven: EncoderSettings {
        var settings = self
        settings.keys = .useDefaultKeys
        settings.defaultKeys = true
        return settings
    }

    /// The JSON key for `key` at `path` (the coding path down to its container), through the key
    /// strategy: one place for the streaming and the tree encoder. The path is built only for a
    /// custom strategy (it is an array per key otherwise).
    func jsonKey(for key: some CodingKey, at path: @autoclosure () -> [any CodingKey]) -> String {
        switch keys {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return JSONEncoder.KeyEncodingStrategy.convertToSnakeCase(key.stringValue)
        case .custom(let convert): return convert(path() + [key]).stringValue
        @unknown default: return key.stringValue
        }
    }
}

extension JSONEncoder.KeyEncodingStrategy {
    /// `JSONEncoder`'s conversion, exactly: words split before capitals (an acronym is one word),
    /// lower-cased, joined by `_`.
    static func convertToSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
            words.append(wordStart..<upper.lowerBound)
            searchRange = upper.lowerBound..<searchRange.upperBound
            guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange) else {
                wordStart = searchRange.lowerBound
                break
            }
            let afterCapital = key.index(after: upper.lowerBound)
            if lower.lowerBound == afterCapital {
                wordStart = upper.lowerBound
            } else {
                let beforeLower = key.index(before: lower.lowerBound)
                words.append(upper.lowerBound..<beforeLower)
                wordStart = beforeLower
            }
            searchRange = lower.upperBound..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}
