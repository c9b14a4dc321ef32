import Magma

extension Output {
    /// The buffer, for the writers that append to `[UInt8]`.
    var bytesForAppending: [UInt8] {
        get { bytes }
        _modify { yield &bytes }
    }
}

/// JSON text of values, written byte by byte (object members in key order, so output is stable).
enum JSONText {
    static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                switch byte {
                case 0x22: out.append(contentsOf: "\\\"".utf8)
                case 0x5C: out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                default: out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// CSV fields (RFC 4180): quoted when they hold a comma, a quote, a line break or any control
/// character (so no row starts with the U+0001 of a bad-record report), quotes doubled.
enum CSVText {
    static func appendValue(_ value: JSONValue, to out: inout Output) {
        switch value {
        case .null: break
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): out.append(n.text)
        case .string(let s): appendField(s, to: &out)
        case .array, .object:
            var text: [UInt8] = []
            JSONText.append(value, to: &text)
            appendField(String(decoding: text, as: UTF8.self), to: &out)
        }
    }

    static func appendField(_ s: String, to out: inout Output) {
        let needsQuotes = s.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") }
        guard needsQuotes else { return out.append(s) }
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}
