import ArgumentParser
import Magma

/// `--format`.
enum ExtractFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, tsv, ndjson
}

/// Writes extracted rows as CSV, TSV or NDJSON lines, each ending in a line feed.
struct RowWriter: @unchecked Sendable {
    let format: ExtractFormat
    /// The row's slot offsets, read in order (no key path applied per value).
    private let offsets: [Int]
    /// Each NDJSON member's `"name":`, escaped once.
    private let memberPrefixes: [[UInt8]]
    private let names: [String]

    init(fields: [ExtractField], format: ExtractFormat) {
        self.format = format
        names = fields.map(\.name)
        offsets = ExtractedRow.slots.prefix(fields.count).map { MemoryLayout<ExtractedRow>.offset(of: $0)! }
        memberPrefixes = fields.enumerated().map { i, field in
            var bytes: [UInt8] = i == 0 ? [UInt8(ascii: "{")] : [UInt8(ascii: ",")]
            JSONText.appendString(field.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
    }

    /// The header line of CSV and TSV (nothing for NDJSON).
    func appendHeader(to out: inout [UInt8]) {
        guard format != .ndjson else { return }
        for (i, name) in names.enumerated() {
            if i > 0 { out.append(format == .csv ? UInt8(ascii: ",") : 0x09) }
            appendText(name, to: &out)
        }
        out.append(0x0A)
    }

    /// A CSV or TSV cell: a scalar's JSON text, a string's text, an array or object as JSON text.
    private func appendCell(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: break
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): appendText(s, to: &out)
        case .array, .object: appendText(JSONText.text(value), to: &out)
        }
    }

    private func appendText(_ text: String, to out: inout [UInt8]) {
        format == .csv ? CSVText.appendField(text, to: &out) : TSVText.appendField(text, to: &out)
    }

    func append(_ row: ExtractedRow, to out: inout [UInt8]) {
        withUnsafeBytes(of: row) { storage in
            switch format {
            case .csv, .tsv:
                let separator = format == .csv ? UInt8(ascii: ",") : 0x09
                for (i, offset) in offsets.enumerated() {
                    if i > 0 { out.append(separator) }
                    if let value = storage.load(fromByteOffset: offset, as: JSONValue?.self) { appendCell(value, to: &out) }
                }
                out.append(0x0A)
            case .ndjson:
                for (i, offset) in offsets.enumerated() {
                    out.append(contentsOf: memberPrefixes[i])
                    if let value = storage.load(fromByteOffset: offset, as: JSONValue?.self) {
                        JSONText.append(value, to: &out)
                    } else {
                        out.append(contentsOf: "null".utf8)
                    }
                }
                out.append(contentsOf: "}\n".utf8)
            }
        }
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

    /// An array or object as JSON text (a CSV or TSV cell).
    static func text(_ value: JSONValue) -> String {
        var text: [UInt8] = []
        append(value, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}

/// CSV fields (RFC 4180): quoted when they hold a comma, a quote, a line break or any other control
/// character (so no row starts with the U+0001 of a bad-record report), quotes doubled. An empty
/// string is `""`, so that it differs from an absent or null value, an empty field.
enum CSVText {
    static func appendField(_ s: String, to out: inout [UInt8]) {
        let needsQuotes = s.isEmpty || s.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") }
        guard needsQuotes else { return out.append(contentsOf: s.utf8) }
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// TSV fields, escaped as `jq -r @tsv` and PostgreSQL's text format escape them: a backslash, a
/// tab, a line feed and a carriage return become `\\`, `\t`, `\n` and `\r`, so every row is one line.
enum TSVText {
    static func appendField(_ s: String, to out: inout [UInt8]) {
        for byte in s.utf8 {
            switch byte {
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            default: out.append(byte)
            }
        }
    }
}
