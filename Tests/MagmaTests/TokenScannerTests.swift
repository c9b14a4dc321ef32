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
