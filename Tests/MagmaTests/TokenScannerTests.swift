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

/// `EscapedText.check` reads sixteen or eight bytes at a time between `\u` escapes and bytes above ASCII; it
/// must agree with reading the escapes one by one and with `UTF8Validation.firstInvalid`,
/// wherever they fall against the eight-byte words, and stop where it says it stops.
@Suite struct EscapedTextCheckTests {
    private let pieces: [[UInt8]] = ["a", "bcdefgh", "\\\\", "\\n", "\\\"", "\\uD800", "\\uDC00", "\\u0041", "\\uD83D\\uDE00", "é", "€",
                                     "🎉", "\\uDBFF\\uDFFF", "\\uD800\\u0041", "\\ud800\\udc00",
                                     // After an escaped backslash, text that reads like an escape.
                                     "uD800", "uDC00", "u0041", "\\\\\\\\"].map { Array($0.utf8) }
        + [[0xFF], [0xED, 0xA0, 0x80], [0xF0, 0x9F], [0xC0, 0xAF], [0x80], [0xF4, 0x90, 0x80, 0x80]]

    /// Escapes read one at a time from the start: the first unpaired surrogate's index, or -1.
    private func firstBadSurrogate(_ raw: [UInt8]) -> Int {
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

    @Test func check_agreesWithReadingEscapesOneByOneAndTheValidator() {
        var random = SeededGenerator(seed: 0xE5C)
        var seen = (invalid: 0, surrogate: 0, both: 0)
        for _ in 0..<8_000 {
            let raw = (0..<Int.random(in: 0...12, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            let invalid = raw.withUnsafeBytes { UTF8Validation.firstInvalid($0) }
            let bad = firstBadSurrogate(raw)
            let badFirst = bad >= 0 && (invalid < 0 || bad < invalid)
            let goOn = raw.withUnsafeBytes { EscapedText.check($0, stopAtBadSurrogate: false) }
            #expect(goOn == .init(invalidUTF8: invalid, badSurrogate: badFirst ? bad : -1), "\(raw)")
            let stop = raw.withUnsafeBytes { EscapedText.check($0, stopAtBadSurrogate: true) }
            #expect(stop == (badFirst ? .init(invalidUTF8: -1, badSurrogate: bad) : .init(invalidUTF8: invalid, badSurrogate: -1)), "\(raw)")
            if invalid >= 0 { seen.invalid += 1 }
            if bad >= 0 { seen.surrogate += 1 }
            if invalid >= 0 && bad >= 0 { seen.both += 1 }
        }
        #expect(seen.invalid > 1_000 && seen.surrogate > 1_000 && seen.both > 500, "\(seen)")
    }
}
