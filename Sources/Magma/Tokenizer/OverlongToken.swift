// A string or number over the size cap, read past byte by byte in a stream that skips bad records,
// so the bytes of a token that may never end are not held (see `Tokenizer.feed`). Also tells the
// Tokenizer whether the held part of a string over the cap holds an error yajl reports first.
// Runs only for a token over the cap.

/// Where the reading of an over-long string or number stands: yajl's lexical grammar, one byte at
/// a time, so it ends where yajl would end the token and fails where yajl would fail it.
struct OverlongToken {
    enum State: UInt8 {
        // A string, after its opening quote: text, after `\`, after `\u` with 4...1 hex digits to come.
        case text, escape, hex4, hex3, hex2, hex1
        // A number, as yajl reads one: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
        case numberStart, minus, zero, integer, point, fraction, exponentMark, exponentSign, exponent
    }

    enum Outcome {
        /// The token runs on past these bytes.
        case open
        /// The token ends before this index (after a string's closing quote; at the byte that
        /// cannot continue a number).
        case ended(Int)
        /// The token holds something yajl rejects (a control character, a bad escape, a number
        /// cut after `-`, `.` or its exponent mark).
        case invalid
    }

    let kind: TokenScanner.Kind
    /// The token's offset in the whole input.
    let start: Int
    /// Whether it follows a `:` (a value) rather than `,`, `{` or `[` (for the path of its error).
    let afterColon: Bool
    private(set) var state: State
    /// The bytes that close the token as far as yajl was fed it, so yajl's state stays whole.
    private(set) var yajlEnding: [UInt8] = []

    /// A token beginning at `start`: a string after its opening quote, a number at its first byte.
    init(kind: TokenScanner.Kind, start: Int, afterColon: Bool) {
        self.kind = kind
        self.start = start
        self.afterColon = afterColon
        state = kind == .string ? .text : .numberStart
    }

    /// A number the input may end right after (the end completes it).
    var isCompleteNumber: Bool { state == .zero || state == .integer || state == .fraction || state == .exponent }

    /// The current state's ending for yajl: yajl has been fed the token this far.
    mutating func markFedToYajl() {
        switch state {
        case .text: yajlEnding = Array("\"".utf8)
        case .escape: yajlEnding = Array("n\"".utf8)
        case .hex4: yajlEnding = Array("0000\"".utf8)
        case .hex3: yajlEnding = Array("000\"".utf8)
        case .hex2: yajlEnding = Array("00\"".utf8)
        case .hex1: yajlEnding = Array("0\"".utf8)
        case .numberStart, .minus, .point, .exponentMark, .exponentSign: yajlEnding = Array("0 ".utf8)
        case .zero, .integer, .fraction, .exponent: yajlEnding = Array(" ".utf8)
        }
    }

    /// Reads `bytes`, which continue the token.
    mutating func advance(over bytes: UnsafeRawBufferPointer) -> Outcome {
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            switch state {
            case .text:
                if c == UInt8(ascii: "\"") { return .ended(i + 1) }
                if c == UInt8(ascii: "\\") { state = .escape } else if c < 0x20 { return .invalid }
            case .escape:
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    state = .text
                case UInt8(ascii: "u"): state = .hex4
                default: return .invalid
                }
            case .hex4, .hex3, .hex2, .hex1:
                guard c.hexDigitValue != nil else { return .invalid }
                state = state == .hex1 ? .text : State(rawValue: state.rawValue + 1)!
            case .numberStart:
                if c == UInt8(ascii: "-") { state = .minus } else { state = c == UInt8(ascii: "0") ? .zero : .integer }
            case .minus:
                guard isDigit(c) else { return .invalid }
                state = c == UInt8(ascii: "0") ? .zero : .integer
            case .zero, .integer, .fraction:
                if isDigit(c), state != .zero { break }
                if c == UInt8(ascii: "."), state != .fraction { state = .point; break }
                if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { state = .exponentMark; break }
                return .ended(i)
            case .point:
                guard isDigit(c) else { return .invalid }
                state = .fraction
            case .exponentMark:
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { state = .exponentSign; break }
                guard isDigit(c) else { return .invalid }
                state = .exponent
            case .exponentSign:
                guard isDigit(c) else { return .invalid }
                state = .exponent
            case .exponent:
                guard isDigit(c) else { return .ended(i) }
            }
            i += 1
        }
        return .open
    }

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
