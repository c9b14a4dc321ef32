// A small forward lexer over bytes the Tokenizer holds, for the rare moments it must know where a
// token yajl is in the middle of began: a token that spans feeds (its raw text, its length against
// the size cap, the offset of a syntax error in it). It runs only from a token boundary (a
// position outside any string), and only on the slow paths, never per event. Strings and numbers
// end where `TokenLexer` reads them to end (its `.boundaries` reading: as far as yajl reads a token,
// malformed or not); comments, literals and punctuation are read here.

/// Token boundaries in JSON text that starts outside any token.
struct TokenScanner {
    enum Kind {
        case string, number, literal, punctuation

        /// As error messages name it.
        var name: String {
            switch self {
            case .string: "string"
            case .number: "number"
            case .literal: "literal"
            case .punctuation: "punctuation"
            }
        }
    }

    struct Token {
        var start: Int
        /// One past the last byte; `count` of the bytes when the token runs to their end.
        var end: Int
        var kind: Kind
        /// Whether the token runs to the end of the bytes (it may continue in later input).
        var open: Bool
        /// The token's length as yajl counts it in its error offsets (a string without its quotes).
        var yajlLength: Int { kind == .string ? max(end - start - 2, 0) : end - start }

        /// The token's length against the size cap as far as `end` (one past the last byte seen;
        /// at most `self.end`): a string's quotes are not counted.
        func contentLength(upTo end: Int) -> Int {
            guard kind == .string else { return end - start }
            return end - start - (!open && end == self.end ? 2 : 1)
        }
    }

    let bytes: UnsafeRawBufferPointer
    let allowComments: Bool

    /// Calls `body` with `carry` followed by `chunk` as one buffer, and returns its result: `chunk`
    /// itself when nothing is carried (so an error in one whole buffer does not copy the input),
    /// else a joined copy.
    static func withJoined<R>(_ carry: UnsafeRawBufferPointer, _ chunk: UnsafeRawBufferPointer,
                              _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if carry.count == 0 { return body(chunk) }
        var joined = Array(carry)
        joined.append(contentsOf: chunk)
        return joined.withUnsafeBytes(body)
    }

    /// Calls `body` with each token in order until it returns false.
    func forEachToken(_ body: (Token) -> Bool) {
        let n = bytes.count
        var i = 0
        while i < n {
            let c = bytes[i]
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                i += 1
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let kind = c == UInt8(ascii: "\"") ? Kind.string : .number
                let end = tokenEnd(at: i, kind: kind)
                if !body(Token(start: i, end: end ?? n, kind: kind, open: end == nil)) { return }
                i = end ?? n
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                // true, false, null: yajl reads exactly the word.
                let length = c == UInt8(ascii: "f") ? 5 : 4
                let j = min(i + length, n)
                if !body(Token(start: i, end: j, kind: .literal, open: j == n && j - i < length)) { return }
                i = j
            case UInt8(ascii: "/") where allowComments:
                let end = commentEnd(at: i)
                if end == nil { _ = body(Token(start: i, end: n, kind: .punctuation, open: true)); return }
                i = end!
            default:
                if !body(Token(start: i, end: i + 1, kind: .punctuation, open: false)) { return }
                i += 1
            }
        }
    }

    /// The token still open at the end of the bytes, if there is one.
    func openToken() -> Token? {
        var last: Token?
        forEachToken { last = $0; return true }
        return last?.open == true ? last : nil
    }

    /// The last token in the bytes and the one before it.
    func lastTwoTokens() -> (last: Token?, previous: Token?) {
        var last: Token?, previous: Token?
        forEachToken { previous = last; last = $0; return true }
        return (last, previous)
    }

    /// The string or number still open at the end of the bytes when it is longer than `limit`
    /// (as `contentLength` counts), and the token before it.
    func openToken(longerThan limit: Int) -> (token: Token, previous: Token?)? {
        let (last, previous) = lastTwoTokens()
        guard let open = last, open.open, open.kind == .string || open.kind == .number,
              open.contentLength(upTo: bytes.count) > limit else { return nil }
        return (open, previous)
    }

    /// The first token that ends after `offset`, or a number ending at it.
    func firstToken(endingAfter offset: Int) -> Token? {
        var found: Token?
        forEachToken { token in
            if token.end > offset || (token.kind == .number && token.end == offset) { found = token; return false }
            return true
        }
        return found
    }

    /// One past the string or number at `i`, as far as yajl reads it (`TokenLexer`'s
    /// `.boundaries`: a malformed one too), or nil if it runs to the end of the bytes.
    private func tokenEnd(at i: Int, kind: Kind) -> Int? {
        var lexer = TokenLexer(string: kind == .string, reading: .boundaries)
        let from = kind == .string ? i + 1 : i
        guard case .ended(let k) = lexer.advance(over: UnsafeRawBufferPointer(rebasing: bytes[from...])) else { return nil }
        return from + k
    }

    /// One past the end of the comment at `i` (`//` to the end of the line, `/* */`), or nil if
    /// it runs to the end of the bytes.
    private func commentEnd(at i: Int) -> Int? {
        let n = bytes.count
        guard i + 1 < n else { return nil }
        if bytes[i + 1] == UInt8(ascii: "/") {
            var j = i + 2
            while j < n, bytes[j] != 0x0A { j += 1 }
            return j < n ? j + 1 : nil
        }
        if bytes[i + 1] == UInt8(ascii: "*") {
            var j = i + 2
            while j + 1 < n {
                if bytes[j] == UInt8(ascii: "*"), bytes[j + 1] == UInt8(ascii: "/") { return j + 2 }
                j += 1
            }
            return nil
        }
        return i + 1
    }

    /// How many backslashes run back from just before `q`, not reaching `floor`: an odd count
    /// escapes the quote at `q`.
    @inline(__always)
    private static func backslashes(in bytes: UnsafeRawBufferPointer, before q: Int, after floor: Int) -> Int {
        var count = 0
        while q - count - 1 > floor, bytes[q - count - 1] == UInt8(ascii: "\\") { count += 1 }
        return count
    }

    /// The index of the last `"` at or before `q`, or -1: eight bytes at a time (a long string
    /// with escapes is scanned back to its start for every value, so a byte loop showed in profiles).
    @inline(__always)
    private static func lastQuote(_ base: UnsafeRawPointer, atOrBefore start: Int) -> Int {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var q = start
        while q >= 7 {
            let x = (base + q - 7).loadUnaligned(as: UInt64.self) ^ 0x2222_2222_2222_2222
            // High bit set exactly in the bytes of x that are zero (the quotes).
            let zeros = ~(((x & low7) &+ low7) | x | low7)
            if zeros != 0 { return q - 7 + (63 - zeros.leadingZeroBitCount) >> 3 }
            q -= 8
        }
        while q >= 0, base.load(fromByteOffset: q, as: UInt8.self) != 0x22 { q -= 1 }
        return q
    }

    /// The index of the quote opening the string whose closing quote is at `close`, scanning
    /// backwards: the nearest quote before it preceded by an even number of backslashes. Nil when
    /// the answer is not decided within the bytes (the string began before them). When the bytes
    /// start at a token boundary, the answer is always decided.
    static func openingQuote(in bytes: UnsafeRawBufferPointer, closingAt close: Int, startsAtBoundary: Bool) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var q = close - 1
        while q >= 0 {
            q = lastQuote(base, atOrBefore: q)
            if q < 0 { return nil }
            let backslashes = Self.backslashes(in: bytes, before: q, after: -1)
            if q - backslashes - 1 < 0 && backslashes > 0 && !startsAtBoundary { return nil }
            if backslashes % 2 == 0 {
                // A quote at the very start could still be an escaped one whose backslash lies
                // before these bytes.
                return q == 0 && !startsAtBoundary ? nil : q
            }
            q -= backslashes + 1
        }
        return nil
    }
}
