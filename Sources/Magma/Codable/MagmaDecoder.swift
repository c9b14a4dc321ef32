import Foundation

/// A drop-in replacement for Foundation's `JSONDecoder`: the same API and the same results, read
/// through yajl into a compact tape instead of Foundation's scanner and a dictionary per object.
///
/// ```swift
/// let decoder = MagmaDecoder()          // was: JSONDecoder()
/// decoder.dateDecodingStrategy = .iso8601
/// let tweets = try decoder.decode(TwitterSearch.self, from: data)
/// ```
///
/// Values and errors match `JSONDecoder`'s: the same `DecodingError` cases with the same
/// `codingPath` and the same `debugDescription` (a suite restating Foundation's own coder tests
/// checks it). What Magma knows besides is in each context's `underlyingError`: a ``JSONError``
/// with the JSON path and the line, column and byte offset of the offending value in the bytes
/// as given. It is added when the error leaves `decode`: an error `init(from:)` catches is
/// JSONDecoder's, and is placed if it is thrown on.
///
/// What JSONDecoder reads beyond strict JSON, this reads too: a comma after the last value of an
/// array or object (`[1,]`); UTF-16 and UTF-32 input, with or without a byte order mark (its
/// encoding found as JSONDecoder finds it); JSON5 with ``allowsJSON5``; an object without its
/// braces with ``assumesTopLevelDictionary``. Such input is made strict UTF-8 JSON in one copy
/// first (plain UTF-8 JSON is read where it lies), so one grammar reads everything.
///
/// Deliberate differences, where Magma is stricter or says more:
/// - Invalid UTF-8 anywhere, and `\u` escapes of lone surrogates, are errors when the document
///   is parsed (`JSONDecoder` fails only for strings that are decoded). Nesting deeper than
///   ``DecodingOptions/maxDepth`` and tokens longer than ``DecodingOptions/maxTokenLength`` fail too
///   (see ``options``); each such error's `underlyingError` names the limit. In JSON5 likewise
///   every token is checked when the document is read: a run `JSONDecoder` takes for a number
///   and checks only if it decodes it (`Null`) is an error.
/// - Keys are compared as UTF-8 bytes, not as Swift `String`s: two keys that differ only in
///   Unicode normalization are different keys.
/// - A UTF-32LE byte order mark (`FF FE 00 00`) is read as one; `JSONDecoder` takes its first two
///   bytes for UTF-16LE's and fails.
/// - `Int128` and `UInt128` written with a fraction of zero past 2^64 (`18446744073709551616.0`)
///   are read exactly; `JSONDecoder` fails (it reads them through `Double` and `Decimal`).
/// - Keyed containers' `allKeys` are in document order.
/// - Records of a stream (``RecordDecoder/init(_:layout:decoder:errorPolicy:progress:onSkip:onRecord:)``)
///   are read one at a time, as strict UTF-8 JSON (no trailing commas, no JSON5); there a string
///   spelled with escapes (`"\u0049nfinity"`) also matches a `.convertFromString` strategy's
///   texts, which `JSONDecoder` compares unescaped only.
/// - ``DateDecodingStrategy`` is Magma's own enum with `JSONDecoder`'s cases, so that
///   `.formatted(formatter)` keeps its formatter (Foundation's is an opaque closure on Linux):
///   the formatter's pattern is then parsed on bytes where Magma's parser agrees with it, and the
///   formatter reads every other date. A strategy held in a `JSONDecoder.DateDecodingStrategy`
///   value converts with `.init(_:)` (or ``init(_:)`` copies a whole `JSONDecoder`).
///
/// Configure a decoder, then share it: decoding does not change it.
public final class MagmaDecoder: @unchecked Sendable {
    /// The strategies for `Data`: `JSONDecoder`'s own type.
    public typealias DataDecodingStrategy = JSONDecoder.DataDecodingStrategy
    /// The strategies for infinities and NaN: `JSONDecoder`'s own type.
    public typealias NonConformingFloatDecodingStrategy = JSONDecoder.NonConformingFloatDecodingStrategy
    /// The strategies for keys: `JSONDecoder`'s own type.
    public typealias KeyDecodingStrategy = JSONDecoder.KeyDecodingStrategy

    /// How dates are decoded. Default `.deferredToDate`.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` is decoded. Default `.base64`.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// How infinities and NaN are decoded. Default `.throw`.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// How JSON keys map to coding keys. Default `.useDefaultKeys`.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// Context for `init(from:)` implementations, as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Magma's limits (depth, token size, surrogate escapes); its mapping options do not apply.
    public var options = DecodingOptions()
    /// Read JSON5 as `JSONDecoder` reads it (comments, unquoted keys, single quotes, hexadecimal,
    /// `Infinity` and `NaN`, a leading `+` or point...). Default `false`.
    public var allowsJSON5 = false
    /// Read a top-level object whose braces are left out (`"a": 1, "b": 2`), as `JSONDecoder`
    /// does; a document that opens with `{` is read as it is. Default `false`.
    public var assumesTopLevelDictionary = false

    /// Creates a decoder with `JSONDecoder`'s defaults.
    public init() {}

    /// Creates a decoder configured as `decoder` is (strategies, user info, JSON5 and the assumed
    /// top-level object).
    /// - Parameter decoder: The `JSONDecoder` whose configuration to copy.
    public convenience init(_ decoder: JSONDecoder) {
        self.init()
        dateDecodingStrategy = DateDecodingStrategy(decoder.dateDecodingStrategy)
        dataDecodingStrategy = decoder.dataDecodingStrategy
        nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        keyDecodingStrategy = decoder.keyDecodingStrategy
        userInfo = decoder.userInfo
        allowsJSON5 = decoder.allowsJSON5
        assumesTopLevelDictionary = decoder.assumesTopLevelDictionary
    }

    /// Decodes a value of `type` from JSON.
    /// - Parameters:
    ///   - type: The type to decode: a metatype value of a class builds its dynamic type, as
    ///     `JSONDecoder` does.
    ///   - data: The JSON text: UTF-8, UTF-16 or UTF-32.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `JSONDecoder` throws it; see the type's discussion.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// Decodes a value of `type` from JSON bytes.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// Decodes a value of `type` from JSON bytes in memory the caller owns (not kept after return).
    public func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeRawBufferPointer) throws -> T {
        try decodeRoot(buffer) { try $0.unwrap(0, as: type, for: .root, nil) }
    }

    /// Decodes a value of a type that needs a configuration to decode, as `JSONDecoder` does.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON text.
    ///   - configuration: Handed to `init(from:configuration:)`.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:from:)` throws it.
    public func decode<T: DecodableWithConfiguration>(_ type: T.Type, from data: Data, configuration: T.DecodingConfiguration) throws -> T {
        try data.withUnsafeBytes { buffer in try decodeRoot(buffer) { try type.init(from: $0, configuration: configuration) } }
    }

    /// Decodes a value of a type that needs a configuration, which `configuration` provides.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON text.
    ///   - configuration: The type whose `decodingConfiguration` is handed to `init(from:configuration:)`.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `decode(_:from:)` throws it.
    public func decode<T: DecodableWithConfiguration, C: DecodingConfigurationProviding>(_ type: T.Type, from data: Data, configuration: C.Type) throws -> T
        where T.DecodingConfiguration == C.DecodingConfiguration {
        try decode(type, from: data, configuration: C.decodingConfiguration)
    }

    /// Reads `buffer` into a tape and runs `body` with a decoder at its root value.
    private func decodeRoot<T>(_ buffer: UnsafeRawBufferPointer, _ body: (TapeDecoder) throws -> T) throws -> T {
        let tape: Tape
        var input: DecoderInput
        do {
            input = try DecoderInput(buffer, json5: allowsJSON5, assumesObject: assumesTopLevelDictionary)
            tape = try input.parse(options: options)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: TapeDecoder.invalidJSON, underlyingError: error))
        }
        var decoder = TapeDecoder(tape: tape, settings: settings, path: .root, value: 0)
        let result: T
        do {
            result = try body(decoder)
        } catch {
            throw input.place(tape.place(error))
        }
        // A decoder or container kept by `init(from:)` reads the tape later: give it its own input.
        if !isKnownUniquelyReferenced(&decoder) { tape.own() }
        return result
    }

    var settings: DecoderSettings {
        DecoderSettings(dates: dateDecodingStrategy, data: dataDecodingStrategy, floats: nonConformingFloatDecodingStrategy,
                        keys: keyDecodingStrategy, userInfo: userInfo)
    }
}

/// A decoder's options, fixed for one decode.
struct DecoderSettings {
    let dates: MagmaDecoder.DateDecodingStrategy
    /// The `.formatted` strategy's formatter, its pattern compiled.
    let formattedDates: FormatterDates?
    let data: JSONDecoder.DataDecodingStrategy
    let floats: JSONDecoder.NonConformingFloatDecodingStrategy
    let keys: JSONDecoder.KeyDecodingStrategy
    let userInfo: [CodingUserInfoKey: Any]
    let defaultKeys: Bool

    init(dates: MagmaDecoder.DateDecodingStrategy, data: JSONDecoder.DataDecodingStrategy,
         floats: JSONDecoder.NonConformingFloatDecodingStrategy, keys: JSONDecoder.KeyDecodingStrategy,
         userInfo: [CodingUserInfoKey: any Sendable]) {
        self.dates = dates
        if case .formatted(let formatter) = dates { formattedDates = FormatterDates(formatter) } else { formattedDates = nil }
        self.data = data
        self.floats = floats
        self.keys = keys
        self.userInfo = userInfo
        if case .useDefaultKeys = keys { defaultKeys = true } else { defaultKeys = false }
    }
}

/// A coding path as a linked list: appending a key is one small allocation, not an array copy.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let k, let parent): keys.append(k); node = parent
            case .index(let i, let parent): keys.append(PathKey(index: i)); node = parent
            }
        }
    }

    func appending(_ key: (any CodingKey)?) -> CodingPathNode {
        guard let key else { return self }
        return .key(key, self)
    }

    func path(byAppending key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return path }
        return path + [key]
    }
}

/// The coding keys the decoder and encoder make themselves: array indices and `super`. An
/// index's text (`Index 3`, as JSONDecoder names it) is made only when asked for.
struct PathKey: CodingKey {
    private let name: String?
    let intValue: Int?

    init(stringValue: String) { name = stringValue; intValue = nil }
    init(intValue: Int) { name = "\(intValue)"; self.intValue = intValue }
    init(index: Int) { name = nil; intValue = index }
    /// A dictionary's key, as `Dictionary.init(from:)` makes it: an integer value when the text is one.
    init(dictionaryKey: String) { name = dictionaryKey; intValue = Int(dictionaryKey) }

    var stringValue: String { name ?? "Index \(intValue!)" }
    /// The array index of a key made by `init(index:)`.
    var index: Int? { name == nil ? intValue : nil }

    static let `super` = PathKey(stringValue: "super")
}

/// `[String: V]`, which `JSONDecoder` reads without the key strategy.
protocol StringKeyedDictionaryMarker {
    static var elementType: any Decodable.Type { get }
}

extension Dictionary: StringKeyedDictionaryMarker where Key == String, Value: Decodable {
    static var elementType: any Decodable.Type { Value.self }
}

extension JSONDecoder.KeyDecodingStrategy {
    /// `JSONDecoder`'s conversion, exactly (`capitalized` lower-cases the rest of each word).
    static func convertFromSnakeCase(_ key: String) -> String {
        guard !key.isEmpty, let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        let joined = words.count == 1 ? String(key[first...last])
                                      : ([words[0].lowercased()] + words[1...].map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}
