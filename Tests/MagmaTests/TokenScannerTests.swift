import Testing
@testable import Magma

/// `TokenScanner.openingQuote` finds a string's opening quote by scanning back eight bytes at a
/// time; it must agree with a byte-by-byte reading of the same rule on any bytes.
@Suite struct TokenScannerTests {
    /// The rule, one byte at a time: the nearest quote before `close` preceded by an even number
    /// of backslashes (undecided when the bytes may have begun inside the string).
    private func reference(_ bytes: [UInt8], close: Int, startsAtBoundary: Bool) -> Int? {
        var q = close - 1
        while q >= 0 {
            while q >= 0, bytes[q] != 0x22 { q -= 1 }
            if q < 0 { return nil }
            var backslashes = 0
            while q - backslashes - 1 >= 0, bytes[q - backslashes - 1] == 0x5C { backslashes += 1 }
            if q - backslashes - 1 < 0 && backslashes > 0 && !startsAtBoundary { return nil }
            if backslashes % 2 == 0 { return q == 0 && !startsAtBoundary ? nil : q }
            q -= backslashes + 1
        }
        return nil
    }

    @Test func openingQuote_agreesWithTheByteByByteRule() {
        var random = SeededGenerator(seed: 0x51A7)
        let alphabet: [UInt8] = [0x22, 0x5C, 0x61, 0x20, 0xC3, 0xA9, 0x3F, 0x22, 0x5C]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &random) ? UInt8(ascii: "x") : alphabet.randomElement(using: &random)!
            }
            let close = Int.random(in: 0...count, using: &random)
            for boundary in [true, false] {
                let found = bytes.withUnsafeBytes {
                    TokenScanner.openingQuote(in: $0, closingAt: close, startsAtBoundary: boundary)
                }
                #expect(found == reference(bytes, close: close, startsAtBoundary: boundary), "\(bytes) close \(close)")
            }
        }
    }
}

/// `EscapedText.firstBadSurrogateEscape` finds backslashes eight bytes at a time; it must agree
/// with reading the escapes one by one, wherever they fall against the eight-byte words.
@Suite struct SurrogateEscapeScanTests {
    private let pieces = ["a", "bcdefgh", "\\\\", "\\n", "\\\"", "\\uD800", "\\uDC00", "\\u0041", "\\uD83D\\uDE00", "é", "\\uDBFF\\uDFFF", "\\uD800\\u0041"]

    /// Escapes read one at a time from the start: the first unpaired surrogate's index, or -1.
    private func reference(_ raw: [UInt8]) -> Int {
        func hex(_ k: Int) -> UInt32? {
            guard k + 4 <= raw.count else { return nil }
            return UInt32(String(decoding: raw[k..<k + 4], as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < raw.count {
            guard raw[i] == 0x5C, i + 1 < raw.count else { i += 1; continue }
            guard raw[i + 1] == UInt8(ascii: "u"), let unit = hex(i + 2) else { i += 2; continue }
            if unit & 0xFC00 == 0xD800 {
                if i + 11 < raw.count, raw[i + 6] == 0x5C, raw[i + 7] == UInt8(ascii: "u"), let low = hex(i + 8), low & 0xFC00 == 0xDC00 {
                    i += 12
                    continue
                }
                return i
            }
            if unit & 0xFC00 == 0xDC00 { return i }
            i += 6
        }
        return -1
    }

    @Test func firstBadSurrogateEscape_agreesWithReadingEscapesOneByOne() {
        var random = SeededGenerator(seed: 0xE5C)
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let raw = Array(text.utf8)
            let found = raw.withUnsafeBytes { EscapedText.firstBadSurrogateEscape($0) }
            #expect(found == reference(raw), "\(text)")
        }
    }
}
