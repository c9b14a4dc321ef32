// Codecs for scalar types: each reads the token's bytes directly (no String unless it keeps one).
import Foundation

final class StringCodec: Codec<String>, @unchecked Sendable {
    static let shared = StringCodec()
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> String {
        String(checkedUTF8: bytes)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> String {
        guard flags.lenient else { throw mismatch("number", JSONError.quote(text, asString: false)) }
        return String(decoding: text, as: UTF8.self)
    }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> String {
        guard flags.lenient else { throw mismatch("bool", "\(value)") }
        return value ? "true" : "false"
    }
    override func encode(_ value: String) throws -> JSONValue { .string(value) }
    override func write(_ value: String, into w: inout JSONWriter) throws { w.string(value) }
    override var typedWrite: TypedWrite? { typed }
    private let typed = TypedWrite(.string) { bytes, address, form in
        form.store(String(checkedUTF8: bytes), at: address)
        return true
    }
    override func makeValueWriter() -> ValueWriter { ScalarValue { (v: String, w) in w.string(v) } }
}

final class BoolCodec: Codec<Bool>, @unchecked Sendable {
    static let shared = BoolCodec()
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> Bool { value }
    /// Lenient: `0` and `1` only.
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Bool {
        if flags.lenient, text.count == 1, text[0] == UInt8(ascii: "0") || text[0] == UInt8(ascii: "1") {
            return text[0] == UInt8(ascii: "1")
        }
        throw mismatch("number", JSONError.quote(text, asString: false))
    }
    /// Lenient: `"true"`, `"false"`, `"1"`, `"0"`.
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Bool {
        if flags.lenient {
            switch String(decoding: bytes, as: UTF8.self) {
            case "true", "1": return true
            case "false", "0": return false
            default: break
            }
        }
        throw mismatch("string", JSONError.quote(bytes, asString: true))
    }
    override func encode(_ value: Bool) throws -> JSONValue { .bool(value) }
    override func write(_ value: Bool, into w: inout JSONWriter) throws { w.bool(value) }
    override var typedWrite: TypedWrite? { typed }
    private let typed = TypedWrite(.bool) { byte, address, form in
        form.store(byte[0] != 0, at: address)
        return true
    }
    override func makeValueWriter() -> ValueWriter { ScalarValue { (v: Bool, w) in w.bool(v) } }
}

/// Any fixed-width integer, range-checked: overflow is an error, never a wrap. A number whose
/// exact value is an integer decodes (`1.0`, `1e2`); one with a fraction does not (`1.5`).
final class IntegerCodec<T: FixedWidthInteger>: Codec<T>, @unchecked Sendable {
    private let typed: TypedWrite
    private let valueWriter: ScalarValue

    /// This class's methods are compiled for any `T`; the two fast paths are compiled where `T` is
    /// concrete (`Transformer.integer`), so every width reads and writes in place.
    init(typedWrite: TypedWrite, valueWriter: ScalarValue) {
        typed = typedWrite
        self.valueWriter = valueWriter
    }

    override var typedWrite: TypedWrite? { typed }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> T {
        switch NumberParsing.integer(text, as: T.self) {
        case .value(let v): return v
        case .notInteger:
            throw JSONError(.numberOutOfRange, "\(JSONError.quote(text, asString: false)) is not an integer, as \(T.self) needs")
        case .overflow:
            throw outOfRange(text)
        }
    }
    /// Lenient: a string holding JSON number text.
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> T { try numberInString(bytes, flags) }
    override func encode(_ value: T) throws -> JSONValue { .number(JSONNumber(value)) }
    override func write(_ value: T, into w: inout JSONWriter) throws { w.integer(value) }
    override func makeValueWriter() -> ValueWriter { valueWriter }
}

/// `Double`, correctly rounded; a number too large for it (`1e400`), or nonzero and too small
/// (`1e-400`, which would round to zero), is an error.
final class DoubleCodec: Codec<Double>, @unchecked Sendable {
    static let shared = DoubleCodec()
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Double {
        guard let v = NumberParsing.doubleInRange(text) else { throw outOfRange(text) }
        return v
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Double { try numberInString(bytes, flags) }
    override func encode(_ value: Double) throws -> JSONValue {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        return .number(JSONNumber(value))
    }
    override func write(_ value: Double, into w: inout JSONWriter) throws { try w.double(value) }
    override var typedWrite: TypedWrite? { typed }
    private let typed = TypedWrite(.number) { text, address, form in
        guard let value = NumberParsing.inlinedDoubleInRange(text) else { return false }
        form.store(value, at: address)
        return true
    }
    override func nestedElementTarget(fallback: ValueTarget) -> ValueTarget? { DoubleArrayElement(self, fallback: fallback) }
    override func makeValueWriter() -> ValueWriter { ScalarValue { (v: Double, w) in try w.double(v) } }
}

final class FloatCodec: Codec<Float>, @unchecked Sendable {
    static let shared = FloatCodec()
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Float {
        guard let v = NumberParsing.floatInRange(text) else { throw outOfRange(text) }
        return v
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Float { try numberInString(bytes, flags) }
    override func encode(_ value: Float) throws -> JSONValue {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        return .number(JSONNumber(unchecked: JSONNumber.shortest(value)))
    }
    override func write(_ value: Float, into w: inout JSONWriter) throws { try w.float(value) }
    override var typedWrite: TypedWrite? { typed }
    private let typed = TypedWrite(.number) { text, address, form in
        guard let value = NumberParsing.floatInRange(text) else { return false }
        form.store(value, at: address)
        return true
    }
    override func makeValueWriter() -> ValueWriter { ScalarValue { (v: Float, w) in try w.float(v) } }
}

/// `Decimal`, exact: the number's text is converted without going through `Double`, and a
/// number Decimal cannot hold exactly (more than its 38 or so significant digits, or an exponent
/// out of its range) is a `numberOutOfRange` error: `Decimal(string:)` would silently drop the
/// extra digits.
final class DecimalCodec: Codec<Decimal>, @unchecked Sendable {
    static let shared = DecimalCodec()
    private static let posix = Locale(identifier: "en_US_POSIX")
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Decimal {
        let string = String(decoding: text, as: UTF8.self)
        guard let v = Decimal(string: string, locale: DecimalCodec.posix), !v.isNaN,
              JSONNumber(unchecked: string) == JSONNumber(unchecked: v.description) else {
            throw JSONError(.numberOutOfRange, "\(JSONError.quote(text, asString: false)) cannot be held exactly by a Decimal")
        }
        return v
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Decimal { try numberInString(bytes, flags) }
    override func encode(_ value: Decimal) throws -> JSONValue {
        guard let n = JSONNumber(value.description) else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        return .number(n)
    }
}

/// A codec for values written as JSON strings and parsed from their bytes.
final class StringFormCodec<V>: Codec<V>, @unchecked Sendable {
    let name: String
    /// Throws rather than returning an optional: generic code handling a `V?` looks up the
    /// metadata of `Optional<V>` at run time on every call.
    let parse: (UnsafeRawBufferPointer) throws(InvalidForm) -> V
    let format: (V) throws -> String

    private let typed: TypedWrite?

    init(_ name: String, parse: @escaping (UnsafeRawBufferPointer) throws(InvalidForm) -> V, format: @escaping (V) throws -> String,
         typedWrite: TypedWrite? = nil) {
        self.name = name
        self.parse = parse
        self.format = format
        typed = typedWrite
    }

    override var typedWrite: TypedWrite? { typed }

    override var typeName: String { name }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V {
        do {
            return try parse(bytes)
        } catch {
            throw JSONError(.invalidValue, "\(JSONError.quote(bytes, asString: true)) is not a valid \(name)")
        }
    }
    override func encode(_ value: V) throws -> JSONValue { .string(try format(value)) }
    override func write(_ value: V, into w: inout JSONWriter) throws { w.string(try format(value)) }
}

/// The text of a string is not in a `StringFormCodec`'s form (the codec names the form).
struct InvalidForm: Error {
    /// The value of a parser that returns nil for text it cannot read; call it where `T` is
    /// concrete.
    @inline(__always)
    static func unwrap<T>(_ value: T?) throws(InvalidForm) -> T {
        guard let value else { throw InvalidForm() }
        return value
    }
}

/// Dates as numbers of seconds (or milliseconds) since 1970.
final class EpochCodec: Codec<Date>, @unchecked Sendable {
    let unitsPerSecond: Double
    init(unitsPerSecond: Double) { self.unitsPerSecond = unitsPerSecond }

    override var typedWrite: TypedWrite? {
        TypedWrite(.number) { [unitsPerSecond] text, address, form in
            guard let v = NumberParsing.doubleInRange(text) else { return false }
            form.store(Date(timeIntervalSince1970: v / unitsPerSecond), at: address)
            return true
        }
    }

    override var typeName: String { unitsPerSecond == 1 ? "Date (epoch seconds)" : "Date (epoch milliseconds)" }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Date {
        guard let v = NumberParsing.doubleInRange(text) else {
            throw JSONError(.numberOutOfRange, "\(JSONError.quote(text, asString: false)) is out of range for a date")
        }
        return Date(timeIntervalSince1970: v / unitsPerSecond)
    }
    /// A Date holds seconds since 2001 as a Double, so its distance from 1970 carries noise below
    /// a microsecond (1 ms reads back as 1.000046730041504 ms): whole microseconds are written
    /// when they read back as the same `Date`, else the nearest number that does.
    override func encode(_ value: Date) throws -> JSONValue {
        let units = value.timeIntervalSince1970 * unitsPerSecond
        guard units.isFinite, abs(units) < 9e18 / 1_000_000 * unitsPerSecond else {
            throw JSONError(.notEncodable, "\(value) is out of range for epoch \(unitsPerSecond == 1 ? "seconds" : "milliseconds")")
        }
        let microseconds = (value.timeIntervalSince1970 * 1_000_000).rounded()
        let perUnit = Int64(1_000_000 / unitsPerSecond)
        let whole = Int64(microseconds)
        if whole % perUnit == 0, reads(Double(whole / perUnit), as: value) { return .number(JSONNumber(whole / perUnit)) }
        if reads(microseconds / Double(perUnit), as: value) { return .number(JSONNumber(microseconds / Double(perUnit))) }
        // The Double next to the product that divides back to this Date (a few steps at most).
        var up = units, down = units
        for _ in 0..<8 {
            if reads(up, as: value) { return .number(JSONNumber(up)) }
            if reads(down, as: value) { return .number(JSONNumber(down)) }
            up = up.nextUp
            down = down.nextDown
        }
        return .number(JSONNumber(units))
    }

    private func reads(_ number: Double, as date: Date) -> Bool {
        Date(timeIntervalSince1970: number / unitsPerSecond) == date
    }
}
