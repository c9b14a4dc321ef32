import Foundation

/// Appends JSON text to a byte buffer: escaping, numbers, separators and indentation. Writers of
/// streams drain `bytes` as it grows; nothing here holds more than the caller leaves in it.
///
/// Separators need no stack of open containers: a container has no member yet exactly when the
/// last byte written is its opening bracket (no value ends in `{` or `[`, and indentation is
/// written before a member, not after the bracket).
struct JSONWriter {
    var bytes: [UInt8] = []
    let options: EncodingOptions
    private var indent = 0

    init(options: EncodingOptions, capacity: Int = 4096) {
        self.options = options
        bytes.reserveCapacity(capacity)
    }

    /// Forgets open containers after a failed write (the caller drops the partial bytes).
    mutating func reset() {
        indent = 0
    }

    /// Whether nil optional properties are left out (``EncodingOptions/NilPolicy/omit``).
    var omitsNil: Bool { options.nilProperties == .omit }

    // MARK: Structure

    mutating func beginObject() { bytes.append(UInt8(ascii: "{")); indent += 1 }
    mutating func endObject() { close(UInt8(ascii: "}"), opening: UInt8(ascii: "{")) }
    mutating func beginArray() { bytes.append(UInt8(ascii: "[")); indent += 1 }
    mutating func endArray() { close(UInt8(ascii: "]"), opening: UInt8(ascii: "[")) }

    /// Drops an object begun at byte `mark` (its key included) that got no member.
    mutating func abandonObject(at mark: Int) {
        indent -= 1
        bytes.removeSubrange(mark...)
    }

    /// Whether the innermost open container has no member yet.
    var containerIsEmpty: Bool {
        let last = bytes.last
        return last == UInt8(ascii: "{") || last == UInt8(ascii: "[")
    }

    /// Writes the separator and the key of the next object member.
    mutating func key(_ key: String) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        if options.prettyPrinted { bytes.append(UInt8(ascii: " ")) }
    }

    /// Writes the separator and a key prepared by ``MemberKey``: its bytes as they are when no
    /// option changes how it is escaped.
    mutating func key(_ key: MemberKey) {
        guard key.isPlain else { return self.key(key.name) }
        separate()
        bytes.append(contentsOf: key.quoted)
        if options.prettyPrinted { bytes.append(UInt8(ascii: " ")) }
    }

    /// A nil property: `key: null`, or nothing when the options omit nil.
    mutating func nilMember(_ key: MemberKey) {
        if omitsNil { return }
        self.key(key)
        null()
    }

    /// Writes the separator before the next array element.
    mutating func element() { separate() }

    private mutating func close(_ bracket: UInt8, opening: UInt8) {
        indent -= 1
        if options.prettyPrinted, bytes.last != opening { newline() }
        bytes.append(bracket)
    }

    private mutating func separate() {
        if !containerIsEmpty { bytes.append(UInt8(ascii: ",")) }
        if options.prettyPrinted { newline() }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { appendASCII(0x6C6C_756E, count: 4) }

    mutating func bool(_ value: Bool) {
        if value { appendASCII(0x6575_7274, count: 4) } else { appendASCII(0x65_736C_6166, count: 5) }
    }

    /// Appends the first `count` bytes of `word`, little-endian: short literals with no array.
    @inline(__always)
    private mutating func appendASCII(_ word: UInt64, count: Int) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Any fixed-width integer; those of 64 bits or fewer through the non-generic writers.
    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        if T.bitWidth <= 64 {
            if T.isSigned { return int64(Int64(truncatingIfNeeded: value)) }
            return uint64(UInt64(truncatingIfNeeded: value))
        }
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        while magnitude != 0 {
            digits.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: digits.reversed())
    }

    mutating func int64(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        uint64(value.magnitude)
    }

    mutating func uint64(_ value: UInt64) {
        if value < 10 { bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)); return }
        // 20 digits at most, right-aligned in a two-word buffer written backwards.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            var v = value
            var i = 24
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v != 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[i..<24]))
        }
    }

    /// A finite Double in its shortest round-trip form: integral values below 10^15 as integers,
    /// others as Swift's `description` writes them (written straight into the buffer: no String).
    mutating func double(_ value: Double) throws {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        if value == value.rounded(), abs(value) < 1e15 {
            if value == 0, value.sign == .minus {
                bytes.append(UInt8(ascii: "-"))
                bytes.append(UInt8(ascii: "0"))
                return
            }
            return int64(Int64(value))
        }
        value.write(to: &self)
    }

    /// Number text that is already valid JSON.
    mutating func numberText(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { string(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var value = value
            value.withUTF8 { string(UnsafeRawBufferPointer($0)) }
        }
    }

    /// A JSON string from UTF-8 bytes: quotes, backslashes and control characters escaped, `/`
    /// and non-ASCII as the options say. Runs of plain bytes are found eight at a time and
    /// copied at once.
    mutating func string(_ utf8: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        let escapeSlashes = options.escapeSlashes
        let asciiOnly = options.asciiOnly
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            if i + 8 <= n,
               !JSONWriter.mayNeedEscape(utf8.loadUnaligned(fromByteOffset: i, as: UInt64.self), escapeSlashes, asciiOnly) {
                i += 8
                continue
            }
            let c = utf8[i]
            let plain = c >= 0x20 && c != 0x22 && c != 0x5C && c < 0x80 && !(c == 0x2F && escapeSlashes)
            if plain || (c >= 0x80 && !asciiOnly) { i += 1; continue }
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
                case 0x22, 0x5C, 0x2F: appendASCII(UInt64(c) << 8 | 0x5C, count: 2)
                case 0x0A: appendASCII(0x6E5C, count: 2)
                case 0x0D: appendASCII(0x725C, count: 2)
                case 0x09: appendASCII(0x745C, count: 2)
                case 0x08: appendASCII(0x625C, count: 2)
                case 0x0C: appendASCII(0x665C, count: 2)
                default: unicodeEscape(UInt16(c))
                }
                i += 1
            }
            runStart = i
        }
        if runStart < n { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<n])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of eight bytes may need escaping: a control character, `"`, `\`, and `/` or
    /// non-ASCII when the options escape them. Exact for "none" (the usual answer).
    @inline(__always)
    private static func mayNeedEscape(_ x: UInt64, _ escapeSlashes: Bool, _ asciiOnly: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        var m = (x &- ones &* 0x20) & ~x & highs  // a byte below 0x20
        m |= hasZero(x ^ (ones &* 0x22)) | hasZero(x ^ (ones &* 0x5C))
        if escapeSlashes { m |= hasZero(x ^ (ones &* 0x2F)) }
        if asciiOnly { m |= x & highs }
        return m != 0
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        @inline(__always) func hex(_ v: UInt16) -> UInt8 {
            let d = UInt8(truncatingIfNeeded: v & 0xF)
            return d < 10 ? UInt8(ascii: "0") &+ d : UInt8(ascii: "a") &+ (d &- 10)
        }
        bytes.append(0x5C)
        bytes.append(0x75)
        bytes.append(hex(unit >> 12))
        bytes.append(hex(unit >> 8))
        bytes.append(hex(unit >> 4))
        bytes.append(hex(unit))
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

/// Doubles write their shortest form here through the standard library's `TextOutputStreamable`
/// conformance, which hands over ASCII bytes without making a String.
extension JSONWriter: TextOutputStream {
    mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
}

/// An object key prepared once per mapping: `"key":` as bytes, used when no option changes them.
/// The bytes live as long as the member that owns the key (``EncodeMember`` frees them).
struct MemberKey {
    let name: String
    /// The quoted key and its colon.
    let quoted: UnsafeRawBufferPointer
    /// Whether the key is printable ASCII without `"`, `\` or `/`: escaping options leave it as is.
    let isPlain: Bool

    init(_ name: String) {
        self.name = name
        isPlain = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C && $0 != 0x2F }
        let bytes = [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        storage.copyBytes(from: bytes)
        quoted = UnsafeRawBufferPointer(storage)
    }

    func deallocate() { quoted.deallocate() }
}
