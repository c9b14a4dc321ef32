// yajl's lexical grammar of strings and numbers, stated once: the states and the one transition
// function below (`move`) are the only definition of where such a token goes on, ends, or fails. It is
// resumable (a token may span any number of feeds) and runs on the slow paths only: the token
// boundaries of TokenScanner and the over-long tokens a stream reads past (OverlongToken).
//
// SkipScanner, the validating scan on the hot path, reads the same grammar eight and sixteen
// bytes a step; `TokenLexerTests` proves it ends and fails every string and number exactly where
// this lexer's `.strict` reading does, over every input of up to five bytes of an alphabet of
// the grammar's bytes.

/// Where the reading of a string or number stands, one byte at a time.
///
/// Two readings of the same grammar, on purpose (`Reading`): `.strict` is yajl's own, which
/// rejects a malformed token at the byte that does not fit; `.boundaries` is how far yajl reads a
/// token before it rejects it, which is where an error in a token that spans feeds starts (`1.e5`
/// is one token to yajl's lexer, rejected once read, so a spanning token's error is placed at
/// its `1`, and the token after it begins after the `5`).
struct TokenLexer {
    /// The two readings of the grammar.
    enum Reading {
        /// yajl's grammar: a control character or a bad escape in a string, a number without the
        /// digit its `-`, `.` or exponent mark needs, is `.invalid` at that byte.
        case strict
        /// Where yajl ends a token, malformed or not: a byte that `.strict` rejects is read again
        /// in the state the grammar would have reached without it (`fallback`); text takes any
        /// byte but its closing quote, an escape any byte. Never `.invalid`.
        case boundaries
    }

    enum State: UInt8 {
        // A string, after its opening quote: text, after `\`, after `\u` with 4...1 hex digits to come.
        case text, escape, hex4, hex3, hex2, hex1
        // A number, as yajl reads one: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
        case numberStart, minus, zero, integer, point, fraction, exponentMark, exponentSign, exponent
    }

    /// What one byte does to the token.
    enum Step {
        /// The byte is part of the token, which goes on.
        case more
        /// The byte ends the token and is part of it (a string's closing quote).
        case endsWith
        /// The token ended before the byte (a number at the byte that cannot continue it).
        case endsBefore
        /// The token holds something yajl rejects, at this byte.
        case invalid
    }

    enum Outcome: Equatable {
        /// The token runs on past these bytes.
        case open
        /// The token ends before this index (after a string's closing quote; at the byte that
        /// cannot continue a number).
        case ended(Int)
        /// The token holds something yajl rejects (a control character, a bad escape, a number
        /// cut after `-`, `.` or its exponent mark).
        case invalid
    }

    let reading: Reading
    private(set) var state: State

    /// A string after its opening quote (`string`), or a number at its first byte, a `-` or a digit.
    init(string: Bool, reading: Reading) {
        self.reading = reading
        state = string ? .text : .numberStart
    }

    /// A number the input may end right after (the end completes it).
    var isCompleteNumber: Bool { state == .zero || state == .integer || state == .fraction || state == .exponent }

    /// Reads `c`.
    @inline(__always)
    mutating func step(_ c: UInt8) -> Step {
        while true {
            switch Self.move(state, c) {
            case .to(let next):
                state = next
                return .more
            case .ends:
                return state.rawValue < State.numberStart.rawValue ? .endsWith : .endsBefore
            case .rejects:
                guard reading == .boundaries else { return .invalid }
                if state == .text || state == .escape {
                    // Any byte is text, and any byte is escaped: only an unescaped quote ends a string.
                    state = .text
                    return .more
                }
                state = Self.fallback(state)
            }
        }
    }

    /// What a byte does in a state, as the grammar says.
    private enum Move {
        case to(State)
        /// It ends the token: a string's closing quote (taken), the byte that cannot continue a number.
        case ends
        /// yajl rejects it.
        case rejects
    }

    /// The transition function of the grammar.
    @inline(__always)
    private static func move(_ state: State, _ c: UInt8) -> Move {
        let digit = c &- UInt8(ascii: "0") < 10
        switch state {
        case .text:
            if c == UInt8(ascii: "\"") { return .ends }
            if c == UInt8(ascii: "\\") { return .to(.escape) }
            return c < 0x20 ? .rejects : .to(.text)
        case .escape:
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return .to(.text)
            case UInt8(ascii: "u"): return .to(.hex4)
            default: return .rejects
            }
        case .hex4, .hex3, .hex2, .hex1:
            guard c.hexDigitValue != nil else { return .rejects }
            return .to(state == .hex1 ? .text : State(rawValue: state.rawValue + 1)!)
        case .numberStart:
            // The caller starts a number at a `-` or a digit.
            if c == UInt8(ascii: "-") { return .to(.minus) }
            return .to(c == UInt8(ascii: "0") ? .zero : .integer)
        case .minus:
            guard digit else { return .rejects }
            return .to(c == UInt8(ascii: "0") ? .zero : .integer)
        case .zero, .integer, .fraction:
            if digit, state != .zero { return .to(state) }
            if c == UInt8(ascii: "."), state != .fraction { return .to(.point) }
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { return .to(.exponentMark) }
            return .ends
        case .point:
            return digit ? .to(.fraction) : .rejects
        case .exponentMark:
            if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { return .to(.exponentSign) }
            return digit ? .to(.exponent) : .rejects
        case .exponentSign:
            return digit ? .to(.exponent) : .rejects
        case .exponent:
            return digit ? .to(.exponent) : .ends
        }
    }

    /// For `.boundaries`: the state a number reaches when the digits that `state` needs next are
    /// missing (yajl reads `-`, `1.` and `1e` as far as a well-formed number would go on).
    private static func fallback(_ state: State) -> State {
        switch state {
        case .minus: .integer
        case .point: .fraction
        case .exponentMark, .exponentSign: .exponent
        // A string's states and the hex digits of `\u`: read on as text.
        default: .text
        }
    }

    /// Reads `bytes`, which continue the token.
    mutating func advance(over bytes: UnsafeRawBufferPointer) -> Outcome {
        var i = 0
        let n = bytes.count
        while i < n {
            if state == .text {
                i = plainRunEnd(bytes, from: i)
                guard i < n else { break }
            }
            switch step(bytes[i]) {
            case .more: i += 1
            case .endsWith: return .ended(i + 1)
            case .endsBefore: return .ended(i)
            case .invalid: return .invalid
            }
        }
        return .open
    }

    /// The first byte at or after `i` that text does not simply take (a quote, a backslash; a
    /// control character when strict): `move` keeps `.text` for every byte before it. For token
    /// boundaries two memchr, as TokenScanner's closing-quote search before it used: it reads the
    /// held bytes of a long string that spans feeds again each time they grow.
    private func plainRunEnd(_ bytes: UnsafeRawBufferPointer, from i: Int) -> Int {
        let n = bytes.count
        guard reading == .boundaries else {
            var j = i
            while j < n {
                let c = bytes[j]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                j += 1
            }
            return j
        }
        guard let base = bytes.baseAddress, i < n else { return i }
        let quote = memchr(base + i, 0x22, n - i).map { UnsafeRawPointer($0) - base } ?? n
        return memchr(base + i, 0x5C, quote - i).map { UnsafeRawPointer($0) - base } ?? quote
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
