import Testing
@testable import Magma

/// `TokenLexer` is the one statement of yajl's string and number grammar. Over every input of up
/// to five bytes of an alphabet of the grammar's bytes (and a control character and a byte above
/// ASCII), it must end and fail each token exactly where the code it replaced did, and where
/// SkipScanner's fast scan does.
@Suite struct TokenLexerTests {
    static let alphabet: [UInt8] = Array("01-+.eE\"\\ua{}[],:/n".utf8) + [0x01, 0xC3]

    /// Every input of 1 to `maxLength` bytes over the alphabet whose first byte is in `first`.
    static func forEachInput(maxLength: Int = 5, first: Set<UInt8>, _ body: ([UInt8]) -> Void) {
        var input: [UInt8] = []
        func extend() {
            body(input)
            guard input.count < maxLength else { return }
            for c in alphabet {
                input.append(c)
                extend()
                input.removeLast()
            }
        }
        for c in first {
            input = [c]
            extend()
        }
    }

    static let numberStarts: Set<UInt8> = Set("-0123456789".utf8).intersection(alphabet)

    static func lex(_ bytes: ArraySlice<UInt8>, string: Bool, _ reading: TokenLexer.Reading) -> (TokenLexer.Outcome, TokenLexer) {
        var lexer = TokenLexer(string: string, reading: reading)
        let outcome = Array(bytes).withUnsafeBytes { lexer.advance(over: $0) }
        return (outcome, lexer)
    }

    /// SkipScanner's answer for the string or number `input` begins with: one past it, or nil.
    static func skipScannerEnd(_ input: [UInt8], cap: Int) -> Int? {
        input.withUnsafeBytes { raw in
            let base = raw.baseAddress!, end = base + raw.count
            let scanner = SkipScanner(maxTokenLength: cap, nestingRoom: 0)
            if input[0] == 0x22 { return scanner.stringEnd(base, end).map { $0 + 1 - base } }
            return scanner.numberEnd(base, end).map { $0 - base }
        }
    }

    /// What SkipScanner must answer by the lexer's `.strict` reading: one past the token when it
    /// ends within the bytes, is within the cap, and (a string) holds strict UTF-8 and paired
    /// surrogate escapes (checked after the grammar, as yajl's events are); else nil.
    static func strictEnd(_ input: [UInt8], cap: Int) -> Int? {
        let string = input[0] == 0x22
        guard case .ended(let k) = lex(input[(string ? 1 : 0)...], string: string, .strict).0 else { return nil }
        guard string else { return k <= cap ? k : nil }
        let content = Array(input[1..<k])
        guard content.count <= cap, content.withUnsafeBytes({ EscapedText.check($0, stopAtBadSurrogate: true) }) == .init() else { return nil }
        return k + 1
    }

    /// SkipScanner reads the grammar eight and sixteen bytes a step: its strings and numbers end
    /// and fail where the lexer's do. Each input is also tried with a run the grammar reads
    /// through (plain text, digits) after its first byte, so that the rest falls on either side
    /// of the scanner's word boundaries.
    @Test func skipScanner_agreesWithTheStrictReading() {
        var checked = (ended: 0, failed: 0)
        Self.forEachInput(first: Self.numberStarts.union([0x22])) { input in
            let filler: UInt8? = input[0] == 0x22 ? UInt8(ascii: "x") : input[0] == UInt8(ascii: "1") ? UInt8(ascii: "7") : nil
            for pad in filler == nil ? [0] : [0, 7, 15, 16, 17] {
                let padded = [input[0]] + [UInt8](repeating: filler ?? 0, count: pad) + input.dropFirst()
                for cap in [3, 1_000] {
                    let expected = Self.strictEnd(padded, cap: cap)
                    let found = Self.skipScannerEnd(padded, cap: cap)
                    #expect(found == expected, "\(padded) cap \(cap)")
                    if expected == nil { checked.failed += 1 } else { checked.ended += 1 }
                }
            }
        }
        #expect(checked.ended > 10_000 && checked.failed > 10_000, "\(checked)")
    }

    // MARK: The code it replaced (TokenScanner's, until these agreed with the lexer)

    /// TokenScanner's number: `-`? (`0` | [0-9]*) (`.` [0-9]*)? ([eE] [+-]? [0-9]*)?.
    static func oldNumberEnd(_ bytes: [UInt8]) -> Int {
        let n = bytes.count
        var j = 0
        func digit(_ k: Int) -> Bool { k < n && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
        if j < n, bytes[j] == UInt8(ascii: "-") { j += 1 }
        if j < n, bytes[j] == UInt8(ascii: "0") { j += 1 } else { while digit(j) { j += 1 } }
        if j < n, bytes[j] == UInt8(ascii: ".") { j += 1; while digit(j) { j += 1 } }
        if j < n, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            j += 1
            if j < n, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            while digit(j) { j += 1 }
        }
        return j
    }

    /// TokenScanner's string: the next quote after an even number of backslashes.
    static func oldClosingQuote(_ bytes: [UInt8]) -> Int? {
        var q = 1
        while q < bytes.count {
            if bytes[q] == 0x22 {
                var backslashes = 0
                while q - backslashes - 1 > 0, bytes[q - backslashes - 1] == 0x5C { backslashes += 1 }
                if backslashes % 2 == 0 { return q }
            }
            q += 1
        }
        return nil
    }

    /// TokenScanner's strings and numbers (the lexer's `.boundaries`) end where the code it
    /// replaced (above) ended them, malformed ones included.
    @Test func tokenScanner_endsStringsAndNumbersAsBefore() {
        var count = 0
        Self.forEachInput(first: Self.numberStarts.union([0x22])) { input in
            count += 1
            let string = input[0] == 0x22
            var first: TokenScanner.Token?
            input.withUnsafeBytes { TokenScanner(bytes: $0, allowComments: false).forEachToken { first = $0; return false } }
            let old = string ? Self.oldClosingQuote(input).map { $0 + 1 } ?? input.count : Self.oldNumberEnd(input)
            #expect(first?.end == old && first?.open == (old == input.count && (!string || Self.oldClosingQuote(input) == nil)),
                    "\(String(decoding: input, as: UTF8.self)) \(input)")
        }
        #expect(count > 800_000)
    }

    /// The two readings differ only on malformed tokens: where `.strict` ends a token, so does
    /// `.boundaries`; where it fails one, `.boundaries` reads on to the same byte or past it.
    /// And a token read in two feeds, split anywhere, is read as in one (OverlongToken's use).
    @Test func readings_differOnlyOnMalformedTokens_andResumeAcrossFeeds() {
        var differ = 0
        Self.forEachInput(first: Self.numberStarts.union([0x22])) { input in
            let string = input[0] == 0x22
            let body = Array(input[(string ? 1 : 0)...])
            let (strict, lexer) = Self.lex(body[...], string: string, .strict)
            let (boundaries, _) = Self.lex(body[...], string: string, .boundaries)
            switch strict {
            case .ended, .open: #expect(boundaries == strict, "\(input)")
            case .invalid: differ += 1
            }
            for split in 0...body.count {
                var resumed = TokenLexer(string: string, reading: .strict)
                var outcome = body[..<split].withUnsafeBytes { resumed.advance(over: $0) }
                if outcome == .open {
                    outcome = body[split...].withUnsafeBytes { resumed.advance(over: $0) }
                    if case .ended(let k) = outcome { outcome = .ended(split + k) }
                }
                #expect(outcome == strict, "\(input) split at \(split)")
                if outcome == .open { #expect(resumed.state == lexer.state) }
            }
        }
        #expect(differ > 10_000)
    }

    /// Where the readings part, as error offsets need them.
    @Test(arguments: [("1.e5 ", 4, 2), ("-a", 1, 1), ("1e+]", 3, 3), ("-.5 ", 3, 1), ("01", 1, nil), ("1.5.", 3, nil)])
    func boundaries_readMalformedNumbersAsYajlDoes(_ text: String, boundariesEnd: Int, strictFailsAt: Int?) {
        let bytes = Array(text.utf8)
        #expect(Self.lex(bytes[...], string: false, .boundaries).0 == .ended(boundariesEnd))
        #expect(Self.lex(bytes[...], string: false, .strict).0 == (strictFailsAt == nil ? .ended(boundariesEnd) : .invalid))
        if let at = strictFailsAt { #expect(Self.lex(bytes[..<at], string: false, .strict).0 == .open) }
    }
}
