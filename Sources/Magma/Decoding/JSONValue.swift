import Foundation

/// Any JSON value: what a property of this type captures of the subtree under its key, and what
/// closure transformers receive.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, kept as its exact text.
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// A JSON number, kept as the text it was written with so that no precision is lost before a
/// transformer decides what it means.
///
/// Two numbers are equal when they denote the same value: `1`, `1.0` and `1e0` are equal.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number as it appeared in the JSON (or as Magma wrote it).
    public let text: String

    /// Creates a number from JSON number text; `nil` if `text` is not JSON number syntax.
    /// - Parameter text: The text, such as `-12.5e3`.
    public init?(_ text: String) {
        var text = text
        guard text.withUTF8({ JSONScanner.isNumber(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.text = text
    }

    init(unchecked text: String) { self.text = text }

    /// The number of a number token (for JSONNumber and JSONValue properties alike): its text is
    /// ASCII that yajl has checked against the JSON grammar, so it is taken without another check.
    init(token text: UnsafeRawBufferPointer) { self.init(unchecked: String(checkedUTF8: text)) }

    /// Creates a number from an integer.
    public init<T: BinaryInteger>(_ value: T) { text = String(value) }
    /// Creates a number from a finite `Double`, written in its shortest round-trip form.
    public init(_ value: Double) { text = JSONNumber.shortest(value) }
    public init(integerLiteral value: Int64) { text = String(value) }
    public init(floatLiteral value: Double) { text = JSONNumber.shortest(value) }

    /// The value as an `Int64` when it is an integer in range (`1.0` and `1e2` are), else `nil`.
    public var int64Value: Int64? {
        var text = text
        return text.withUTF8 { bytes in
            if case .value(let v) = NumberParsing.integer(UnsafeRawBufferPointer(bytes), as: Int64.self) { return v }
            return nil
        }
    }

    /// The value as the nearest `Double`, or `nil` if it is out of its range (it overflows, or it
    /// is nonzero and would round to zero).
    public var doubleValue: Double? {
        var text = text
        return text.withUTF8 { NumberParsing.doubleInRange(UnsafeRawBufferPointer($0)) }
    }

    /// The value as an exact `Decimal`, or `nil` if it does not fit one.
    public var decimalValue: Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

    public var description: String { text }

    /// Exact: compares the decimal values the texts denote, however many digits they have.
    public static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        a.text == b.text || a.canonical == b.canonical
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// The value as (negative, significant digits without leading or trailing zeros, exponent of
    /// the last digit): equal values have equal canonical forms. Zero is (false, "", 0).
    private var canonical: Canonical {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        var i = text.utf8.makeIterator()
        while let c = i.next() {
            switch c {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var rest = ""
                while let d = i.next() { rest.unicodeScalars.append(Unicode.Scalar(d)) }
                exponent += Int(rest) ?? (rest.hasPrefix("-") ? Int.min / 4 : Int.max / 4)
            default:
                if digits.isEmpty && c == UInt8(ascii: "0") {
                    if seenPoint { exponent -= 1 }
                } else {
                    digits.append(c)
                    if seenPoint { exponent -= 1 }
                }
            }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return Canonical(negative: false, digits: [], exponent: 0) }
        return Canonical(negative: negative, digits: digits, exponent: exponent)
    }

    private struct Canonical: Hashable {
        let negative: Bool
        let digits: [UInt8]
        let exponent: Int
    }

    /// As JSONEncoder writes a float: `description` (the shortest text that round-trips) without
    /// a trailing ".0". `JSONWriter.descriptionForm` writes the same into a buffer.
    static func shortest<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String {
        // JSON wants no "inf"/"nan".
        precondition(value.isFinite, "JSON numbers are finite")
        var s = value.description
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }
}

extension JSONValue {
    /// The name of this value's JSON type, for messages: `null`, `bool`, `number`, `string`, `array`, `object`.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
