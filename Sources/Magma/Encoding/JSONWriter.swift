import Foundation

/// Appends JSON text to a byte buffer: escaping, numbers, separators and indentation. Writers of
/// streams drain `bytes` as it grows; nothing here holds more than the caller leaves in it.
struct JSONWriter {
    var bytes: [UInt8] = []
    let options: EncodingOptions
    private var indent = 0
    /// Per open container: whether it has a member yet.
    private var hasMember: [Bool] = []

    init(options: EncodingOptions, capacity: Int = 4096) {
        self.options = options
        bytes.reserveCapacity(capacity)
        hasMember.reserveCapacity(16)
    }

    /// Forgets open containers after a failed write (the caller drops the partial bytes).
    mutating func reset() {
        indent = 0
        hasMember.removeAll(keepingCapacity: true)
    }

    // MARK: Structure

    mutating func beginObject() { bytes.append(UInt8(ascii: "{")); open() }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { bytes.append(UInt8(ascii: "[")); open() }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes the separator and the key of the next object member.
    mutating func key(_ key: String) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        if options.prettyPrinted { bytes.append(UInt8(ascii: " ")) }
    }

    /// Writes the separator before the next array element.
    mutating func element() { separate() }

    private mutating func open() {
        hasMember.append(false)
        indent += 1
    }

    private mutating func close(_ bracket: UInt8) {
        indent -= 1
        if hasMember.removeLast(), options.prettyPrinted { newline() }
        bytes.append(bracket)
    }

    private mutating func separate() {
        if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) } else { hasMember[hasMember.count - 1] = true }
        if options.prettyPrinted { newline() }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    mutating func bool(_ value: Bool) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
    }

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            var i = 40
            while magnitude != 0 {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<40]))
        }
    }

    /// A finite Double in its shortest round-trip form.
    mutating func double(_ value: Double) throws {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        if value == value.rounded(), abs(value) < 1e15 {
            if value == 0, value.sign == .minus { bytes.append(contentsOf: Array("-0".utf8)); return }
            return integer(Int64(value))
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Number text that is already valid JSON.
    mutating func numberText(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    /// A JSON string from UTF-8 bytes: quotes, backslashes and control characters escaped, `/`
    /// and non-ASCII as the options say.
    mutating func string(_ utf8: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            let c = utf8[i]
            let plain = c >= 0x20 && c != 0x22 && c != 0x5C && c < 0x80 && !(c == 0x2F && options.escapeSlashes)
            if plain || (c >= 0x80 && !options.asciiOnly) { i += 1; continue }
            if runStart < i { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<i])) }
            if c >= 0x80 {
                // asciiOnly: decode the scalar and write it as \u escapes.
                var scalarLength = 1
                let scalar = JSONWriter.decodeScalar(utf8, at: i, length: &scalarLength)
                if scalar.value > 0xFFFF {
                    let v = scalar.value - 0x10000
                    unicodeEscape(UInt16(0xD800 + (v >> 10)))
                    unicodeEscape(UInt16(0xDC00 + (v & 0x3FF)))
                } else {
                    unicodeEscape(UInt16(scalar.value))
                }
                i += scalarLength
            } else {
                switch c {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x2F: bytes.append(contentsOf: [0x5C, 0x2F])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
                case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
                default: unicodeEscape(UInt16(c))
                }
                i += 1
            }
            runStart = i
        }
        if runStart < n { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<n])) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, 0x75, hex[Int(unit >> 12)], hex[Int((unit >> 8) & 0xF)], hex[Int((unit >> 4) & 0xF)],
                                  hex[Int(unit & 0xF)]])
    }

    /// Decodes one scalar of valid UTF-8 (Swift strings always are).
    private static func decodeScalar(_ utf8: UnsafeRawBufferPointer, at i: Int, length: inout Int) -> Unicode.Scalar {
        let c = UInt32(utf8[i])
        var value: UInt32
        if c < 0xE0 { length = 2; value = c & 0x1F } else if c < 0xF0 { length = 3; value = c & 0x0F } else { length = 4; value = c & 0x07 }
        for k in 1..<length { value = value << 6 | UInt32(utf8[i + k] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    // MARK: Values

    /// Writes any JSONValue; object keys sorted when the options ask.
    mutating func value(_ value: JSONValue) throws {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): numberText(n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for e in elements {
                element()
                try self.value(e)
            }
            endArray()
        case .object(let members):
            beginObject()
            let keys = options.sortedKeys ? members.keys.sorted(by: JSONWriter.byteOrder) : Array(members.keys)
            for k in keys {
                key(k)
                try self.value(members[k]!)
            }
            endObject()
        }
    }

    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
