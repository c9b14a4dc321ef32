// A string or number over the size cap, read past byte by byte in a stream that skips bad records,
// so the bytes of a token that may never end are not held (see `Tokenizer.feed`). Also tells the
// Tokenizer whether the held part of a string over the cap holds an error yajl reports first.
// Runs only for a token over the cap.

/// Where the reading of an over-long string or number stands: yajl's grammar (`TokenLexer`, read
/// strictly), so it ends where yajl would end the token and fails where yajl would fail it.
struct OverlongToken {
    let kind: TokenScanner.Kind
    /// The token's offset in the whole input.
    let start: Int
    /// Whether it follows a `:` (a value) rather than `,`, `{` or `[` (for the path of its error).
    let afterColon: Bool
    private var lexer: TokenLexer
    /// The bytes that close the token as far as yajl was fed it, so yajl's state stays whole.
    private(set) var yajlEnding: [UInt8] = []

    /// A token beginning at `start`: a string after its opening quote, a number at its first byte.
    init(kind: TokenScanner.Kind, start: Int, afterColon: Bool) {
        self.kind = kind
        self.start = start
        self.afterColon = afterColon
        lexer = TokenLexer(string: kind == .string, reading: .strict)
    }

    /// A number the input may end right after (the end completes it).
    var isCompleteNumber: Bool { lexer.isCompleteNumber }

    /// The current state's ending for yajl: yajl has been fed the token this far.
    mutating func markFedToYajl() {
        switch lexer.state {
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
    mutating func advance(over bytes: UnsafeRawBufferPointer) -> TokenLexer.Outcome {
        lexer.advance(over: bytes)
    }
}
