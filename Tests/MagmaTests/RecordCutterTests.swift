import Foundation
import Testing
@testable import Magma

/// Where `RecordCutter` ends a record fed in pieces: exactly after the record's closing bracket,
/// whatever the pieces, for records with escapes (backslash runs of every length, escaped quotes),
/// brackets and quotes inside strings, and blocks of 64 bytes with and without backslashes.
@Suite struct RecordCutterTests {
    /// Both ways of reading a container's blocks: 16 bytes a load, and AVX2's 32 where the
    /// processor has it (else the first way twice).
    @Test(arguments: [false, true])
    func endsEveryRecordAtItsClosingBracket_inAnyPieces(wide: Bool) throws {
        var g = SeededGenerator(seed: 2026)
        for round in 0..<400 {
            // Half the records have no escape at all: their blocks are read 64 bytes a step.
            let record = Array(Self.value(depth: 0, escapes: round % 2 == 0, &g).utf8)
            let bytes = record + Array(#", {"next": "]}\\"}]"#.utf8)
            // One piece, then random pieces (1 to 200 bytes).
            for split in 0..<3 {
                var cutter = RecordCutter()
                cutter.wide = wide && hasAVX2
                var at = 0, end: Int?
                while end == nil, at < bytes.count {
                    let size = split == 0 ? bytes.count - at : min(bytes.count - at, Int.random(in: 1...200, using: &g))
                    bytes.withUnsafeBytes { all in
                        let piece = all.baseAddress! + at
                        if let stop = cutter.scan(piece, piece + size) { end = stop - all.baseAddress! }
                    }
                    at += size
                }
                #expect(end == record.count, "round \(round), split \(split): \(String(decoding: record.prefix(300), as: UTF8.self))")
            }
        }
    }

    /// A JSON object or array, long enough to span blocks, with strings full of what a cutter must
    /// see past.
    static func value(depth: Int, escapes: Bool, _ g: inout SeededGenerator) -> String {
        if depth > 3 || (depth > 0 && Int.random(in: 0..<3, using: &g) == 0) {
            switch Int.random(in: 0..<4, using: &g) {
            case 0: return String(Int.random(in: -99999...99999, using: &g))
            case 1: return ["true", "false", "null"][Int.random(in: 0..<3, using: &g)]
            default: return string(escapes: escapes, &g)
            }
        }
        let count = Int.random(in: 0...6, using: &g)
        if Bool.random(using: &g) {
            return "[" + (0..<count).map { _ in value(depth: depth + 1, escapes: escapes, &g) }.joined(separator: Bool.random(using: &g) ? "," : ", ") + "]"
        }
        return "{" + (0..<count).map { _ in string(escapes: escapes, &g) + ":" + value(depth: depth + 1, escapes: escapes, &g) }.joined(separator: ",") + "}"
    }

    /// A JSON string: plain runs, brackets and braces, multibyte characters; with `escapes`,
    /// escaped quotes, runs of 1 to 5 escaped backslashes, `\n` and `\u` escapes too.
    static func string(escapes: Bool, _ g: inout SeededGenerator) -> String {
        let plain = ["abc", "lorem ipsum dolor sit amet ", "[", "]", "{", "}", "é", "日本", ",", ":", " "]
        let parts = escapes ? plain + ["\\\"", "\\n", "\\u00e9"] : plain
        var text = "\""
        for _ in 0..<Int.random(in: 0...40, using: &g) {
            if escapes, Int.random(in: 0..<8, using: &g) == 0 {
                text += String(repeating: "\\\\", count: Int.random(in: 1...5, using: &g))
            } else {
                text += parts[Int.random(in: 0..<parts.count, using: &g)]
            }
        }
        return text + "\""
    }
}
