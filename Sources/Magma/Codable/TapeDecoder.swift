// TapeDecoder: Swift's `Decoder` over a `Tape`. It follows `JSONDecoder`'s implementation step
// for step where users can see it (which error, which coding path, null versus type mismatch),
// so the two give the same values and errors; the differential suite holds it to that.
//
// A value is a tape index; -1 is a `null` that is not in the input (a `superDecoder` for an
// absent key). One decoder serves a whole decode: `with(value:path:)` points it at a nested value
// for the length of a call, as JSONDecoder does, instead of making a decoder per value.

import Foundation

final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    let tape: Tape
    let settings: DecoderSettings
    var node: CodingPathNode
    /// The value `init(from:)` reads now (a tape index; -1 for an absent key's null).
    var value: Int

    /// How each type met so far is decoded, so that no value costs a conformance check.
    private let routes = TypeRoutes()
    private var mismatchMessages: [(type: ObjectIdentifier, kind: TapeKind, text: String)] = []

    init(tape: Tape, settings: DecoderSettings, path: CodingPathNode, value: Int) {
        self.tape = tape
        self.settings = settings
        self.node = path
        self.value = value
    }

    var codingPath: [any CodingKey] { node.path }
    var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

    @inline(__always)
    func kind(_ i: Int) -> TapeKind { i < 0 ? .null : tape[i].kind }

    @inline(__always)
    func with<T>(value: Int, path: CodingPathNode?, _ body: () throws -> T) rethrows -> T {
        let oldPath = node, oldValue = self.value
        if let path { node = path }
        self.value = value
        defer { node = oldPath; self.value = oldValue }
        return try body()
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch kind(value) {
        case .object:
            return KeyedDecodingContainer(try KeyedContainer<Key>(decoder: self, path: node, object: value))
        case .null:
            throw located(.valueNotFound([String: Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead")), value)
        default:
            throw typeMismatch([String: Any].self, codingPath, value)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch kind(value) {
        case .array:
            return UnkeyedContainer(decoder: self, path: node, array: value)
        case .null:
            throw located(.valueNotFound([Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead")), value)
        default:
            throw typeMismatch([Any].self, codingPath, value)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Unwrapping (values of any container)

    func unwrap<T: Decodable>(_ i: Int, as type: T.Type, for path: CodingPathNode, _ key: (any CodingKey)?) throws -> T {
        if type == Date.self { return try unwrapDate(i, path, key) as! T }
        if type == Data.self { return try unwrapData(i, path, key) as! T }
        if type == URL.self { return try unwrapURL(i, path, key) as! T }
        if type == Decimal.self { return try unwrapDecimal(i, path, key) as! T }
        // Scalars and arrays without a trip through `init(from:)` and the existential containers
        // (the standard library's generic `Array.init(from:)` looks up Array's metadata per call).
        if T.self == String.self { return unsafeBitCast(try unwrapString(i, path, key), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unwrapFloat(i, as: Double.self, path, key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unwrapInteger(i, as: Int.self, path, key), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try unwrapInteger(i, as: Int64.self, path, key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unwrapBool(i, path.path(byAppending: key)), to: T.self) }
        if !settings.defaultKeys, let dictionary = type as? any StringKeyedDictionaryMarker.Type {
            return try unwrapDictionary(i, dictionary.elementType, path, key) as! T
        }
        if let direct = routes.answer(for: type) {
            return try direct.decode(from: self, i, path.appending(key)) as! T
        }
        return try with(value: i, path: path.appending(key)) { try type.init(from: self) }
    }

    /// Checks that the value at `i` is an object, with `Dictionary.init(from:)`'s errors.
    func checkObject(_ i: Int, _ path: CodingPathNode) throws {
        switch kind(i) {
        case .object: return
        case .null:
            throw located(.valueNotFound([String: Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Cannot get keyed decoding container -- found null value instead")), i)
        default:
            throw typeMismatch([String: Any].self, path.path, i)
        }
    }

    /// The `count` elements of the array at `i`, each read by `element` (its entry and index key).
    @inline(__always)
    func elements<E>(_ i: Int, _ count: Int, _ path: CodingPathNode, _ element: (Int, PathKey) throws -> E) throws -> [E] {
        var result: [E] = []
        result.reserveCapacity(count)
        var k = i + 1
        for index in 0..<count {
            result.append(try element(k, PathKey(index: index)))
            k = tape.next(after: k)
        }
        return result
    }

    /// Checks that the value at `i` is an array, with `Array.init(from:)`'s errors; returns its count.
    func checkArray(_ i: Int, _ path: CodingPathNode) throws -> Int {
        switch kind(i) {
        case .array: return tape[i].count
        case .null:
            throw located(.valueNotFound([Any].self, DecodingError.Context(
                codingPath: path.path, debugDescription: "Cannot get unkeyed decoding container -- found null value instead")), i)
        default:
            throw typeMismatch([Any].self, path.path, i)
        }
    }

    func checkNotNull<T>(_ i: Int, _ type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws {
        if kind(i) == .null {
            throw located(.valueNotFound(type, DecodingError.Context(
                codingPath: path.path(byAppending: key), debugDescription: "Cannot get value of type \(type) -- found null value instead")), i)
        }
    }

    func unwrapBool(_ i: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch kind(i) {
        case .trueValue: return true
        case .falseValue: return false
        default: throw typeMismatch(Bool.self, path(), i)
        }
    }

    func unwrapString(_ i: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> String {
        String(checkedUTF8: try stringText(i, String.self, path, key))
    }

    /// The text of the string at `i`, for a `type` read from a string: not null, and a string.
    private func stringText<T>(_ i: Int, _ type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> UnsafeRawBufferPointer {
        try checkNotNull(i, type, path, key)
        guard kind(i) == .string else { throw typeMismatch(String.self, path.path(byAppending: key), i) }
        return tape.text(tape[i])
    }

    func unwrapInteger<T: FixedWidthInteger>(_ i: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> T {
        try checkNotNull(i, type, path, key)
        guard kind(i) == .number else { throw typeMismatch(type, path.path(byAppending: key), i) }
        let text = tape.text(tape[i])
        // (JSON5's `Infinity` and `NaN` read as 0 digits: not an integer.)
        if case .value(let v) = NumberParsing.integer(text, as: T.self), v != 0 || !Self.isNonFinite(text) { return v }
        // JSONDecoder's slow path: through a Double when exact below 2^53, else through Decimal.
        if Self.isNonFinite(text) { throw notRepresentable(i, type, path, key) }
        if let double = NumberParsing.double(text) {
            guard let v = T(exactly: double) else { throw notRepresentable(i, type, path, key) }
            if double.magnitude < 9_007_199_254_740_992 { return v }
        }
        if let decimal = Decimal(string: String(checkedUTF8: text), locale: Locale(identifier: "en_US_POSIX")),
           let v = T(exactly: decimal) {
            return v
        }
        throw notRepresentable(i, type, path, key)
    }

    func unwrapFloat<T: BinaryFloatingPoint>(_ i: Int, as type: T.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> T {
        try checkNotNull(i, type, path, key)
        let e = i < 0 ? TapeEntry(word: 0, payload: 0) : tape[i]
        if e.kind == .number {
            let text = tape.text(e)
            let parsed: T? = T.self == Float.self ? NumberParsing.float(text).map { T($0) } : NumberParsing.double(text).map { T($0) }
            if parsed == nil || parsed == 0, let literal: T = Self.nonFinite(text) { return literal }
            guard let value = parsed, value.isFinite, value != 0 || Self.isTrueZero(text) else {
                throw notRepresentable(i, type, path, key)
            }
            return value
        }
        if e.kind == .string, !e.escaped, case let .convertFromString(positiveInfinity: inf, negativeInfinity: negInf, nan: nan) = settings.floats {
            let text = tape.text(e)
            if text.elementsEqual(inf.utf8) { return T.infinity }
            if text.elementsEqual(negInf.utf8) { return -T.infinity }
            if text.elementsEqual(nan.utf8) { return T.nan }
        }
        throw typeMismatch(type, path.path(byAppending: key), i)
    }

    static func isNonFinite(_ text: UnsafeRawBufferPointer) -> Bool { (nonFinite(text) as Double?) != nil }

    /// JSON5's `Infinity` and `NaN`, signed or not (only a JSON5 document's tape has them).
    static func nonFinite<T: BinaryFloatingPoint>(_ text: UnsafeRawBufferPointer) -> T? {
        let negative = text.first == UInt8(ascii: "-")
        let body = UnsafeRawBufferPointer(rebasing: text[(negative ? 1 : 0)...])
        if body.elementsEqual("Infinity".utf8) { return negative ? -T.infinity : T.infinity }
        if body.elementsEqual("NaN".utf8) { return negative ? -T.nan : T.nan }
        return nil
    }

    /// No digit 1-9 before the exponent: the number is zero, not a value that underflowed to it.
    static func isTrueZero(_ text: UnsafeRawBufferPointer) -> Bool {
        for c in text {
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return false }
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { return true }
        }
        return true
    }

    private func unwrapDate(_ i: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> Date {
        try checkNotNull(i, Date.self, path, key)
        switch settings.dates {
        case .deferredToDate:
            return try with(value: i, path: path.appending(key)) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(i, as: Double.self, path, key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(i, as: Double.self, path, key) / 1000)
        case .iso8601:
            let string = try unwrapString(i, path, key)
            // Magma's parser where it answers, else Foundation's, which also takes the dates
            // Magma rejects (Feb 30 rolls over to March, as JSONDecoder has it).
            let fast = ISO8601DateCoding.parseFast(tape.text(tape[i])).map { Date(timeIntervalSinceReferenceDate: $0) }
            guard let date = fast ?? (try? Self.iso8601Style.parse(string)) else {
                // JSONDecoder's path here is the container's, without the key.
                throw located(.dataCorrupted(DecodingError.Context(codingPath: codingPath,
                                                                    debugDescription: "Expected date string to be ISO8601-formatted.")), i)
            }
            return date
        case .formatted:
            let dates = settings.formattedDates.unsafelyUnwrapped
            if kind(i) == .string, let date = try dates.date(tape.text(tape[i]), string: { try unwrapString(i, path, key) }) {
                return date
            }
            let decode = dates.foundationDecoding
            return try with(value: i, path: path.appending(key)) { try decode(self) }
        case .custom(let closure):
            return try with(value: i, path: path.appending(key)) { try closure(self) }
        }
    }

    private static let iso8601Style = Date.ISO8601FormatStyle()

    private func unwrapData(_ i: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> Data {
        try checkNotNull(i, Data.self, path, key)
        switch settings.data {
        case .deferredToData:
            return try with(value: i, path: path.appending(key)) { try Data(from: self) }
        case .base64:
            guard let data = Data(base64Encoded: String(checkedUTF8: try stringText(i, Data.self, path, key))) else {
                throw located(.dataCorrupted(DecodingError.Context(codingPath: path.path(byAppending: key),
                                                                    debugDescription: "Encountered Data is not valid Base64.")), i)
            }
            return data
        case .custom(let closure):
            return try with(value: i, path: path.appending(key)) { try closure(self) }
        @unknown default:
            return try with(value: i, path: path.appending(key)) { try Data(from: self) }
        }
    }

    private func unwrapURL(_ i: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> URL {
        // Read as JSONDecoder reads it (`URL(string:)`), once per distinct text on this thread.
        guard let url = URLCache.url(for: try stringText(i, URL.self, path, key), reading: .foundation) else {
            throw located(.dataCorrupted(DecodingError.Context(codingPath: path.path(byAppending: key),
                                                                debugDescription: "Invalid URL string.")), i)
        }
        return url
    }

    private func unwrapDecimal(_ i: Int, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> Decimal {
        try checkNotNull(i, Decimal.self, path, key)
        guard kind(i) == .number else {
            throw located(.typeMismatch(Decimal.self, DecodingError.Context(codingPath: path.path(byAppending: key), debugDescription: "")), i)
        }
        // JSON5's infinities and NaN, which JSONDecoder reads as Decimal's NaN.
        if Self.isNonFinite(tape.text(tape[i])) { return Decimal.nan }
        guard let decimal = Decimal(string: String(checkedUTF8: tape.text(tape[i])), locale: Locale(identifier: "en_US_POSIX")) else {
            throw notRepresentable(i, Decimal.self, path, key)
        }
        return decimal
    }

    private func unwrapDictionary(_ i: Int, _ element: any Decodable.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) throws -> [String: Any] {
        try checkNotNull(i, [String: Any].self, path, key)
        guard kind(i) == .object else { throw typeMismatch([String: Any].self, path.path(byAppending: key), i) }
        let node = path.appending(key)
        var result: [String: Any] = [:]
        var k = i + 1
        let end = tape[i].end
        func open<V: Decodable>(_ type: V.Type, _ index: Int, _ key: PathKey) throws -> Any { try unwrap(index, as: type, for: node, key) }
        while k < end {
            let name = String(checkedUTF8: tape.text(tape[k]))
            if result[name] == nil { result[name] = try open(element, k + 1, PathKey(stringValue: name)) }
            k = tape.next(after: k + 1)
        }
        return result
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { kind(value) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try unwrapBool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try unwrapString(value, node, nil) }
    func decode(_ type: Double.Type) throws -> Double { try unwrapFloat(value, as: type, node, nil) }
    func decode(_ type: Float.Type) throws -> Float { try unwrapFloat(value, as: type, node, nil) }
    func decode(_ type: Int.Type) throws -> Int { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: Int128.Type) throws -> Int128 { try unwrapInteger(value, as: type, node, nil) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unwrapInteger(value, as: type, node, nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(value, as: type, for: node, nil) }

    // MARK: Errors

    func typeMismatch(_ type: Any.Type, _ path: [any CodingKey], _ i: Int) -> DecodingError {
        located(.typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: mismatchMessage(type, i))), i)
    }

    /// "Expected to decode T but found K instead.", kept per type and kind: a generic
    /// `init(from:)` that tries type after type with `try?` has one made per value.
    private func mismatchMessage(_ type: Any.Type, _ i: Int) -> String {
        let id = ObjectIdentifier(type), found = kind(i)
        for k in mismatchMessages.indices where mismatchMessages[k].type == id && mismatchMessages[k].kind == found {
            return mismatchMessages[k].text
        }
        let text = "Expected to decode \(type) but found \(describe(i)) instead."
        if mismatchMessages.count < 16 { mismatchMessages.append((id, found, text)) }
        return text
    }

    /// A number that does not fit `type`. JSONDecoder reports it as invalid JSON at the top
    /// (`dataCorrupted`, empty coding path); so does this, the number and its path in the
    /// underlying error's message.
    func notRepresentable(_ i: Int, _ type: Any.Type, _ path: CodingPathNode, _ key: (any CodingKey)?) -> DecodingError {
        let text = String(decoding: tape.text(tape[i]), as: UTF8.self)
        let real = JSONPathText.render(path.path(byAppending: key))
        return located(.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: Self.invalidJSON)), i,
                       code: .numberOutOfRange, path: real, message: "number \(text) does not fit in \(type)")
    }

    /// JSONDecoder's text for input it cannot read.
    static let invalidJSON = "The given data was not valid JSON."

    private func describe(_ i: Int) -> String {
        switch kind(i) {
        case .null: "null"
        case .falseValue, .trueValue: "bool"
        case .number: "number"
        case .string, .key: "a string"
        case .object: "a dictionary"
        case .array: "an array"
        }
    }

    /// Marks `error` with the tape entry it is about. Where that is (line, column, byte offset,
    /// JSON path) is put in only when the error leaves the decode (`Tape.place`): not for each
    /// error a `try?` in `init(from:)` drops, which was half of a generic decode.
    func located(_ error: DecodingError, _ i: Int, code: JSONError.Code? = nil, path: String? = nil, message: String? = nil) -> DecodingError {
        let pending = PendingLocation(index: i, code: code, path: path, message: message)
        return error.withContext {
            DecodingError.Context(codingPath: $0.codingPath, debugDescription: $0.debugDescription, underlyingError: pending)
        }
    }
}
