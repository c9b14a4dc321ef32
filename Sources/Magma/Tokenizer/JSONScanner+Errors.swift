// JSONScanner+Errors.swift — Magma
//
// What the grammar says when the bytes are not JSON: yajl's words (its lexer's errors prefixed
// "lexical error: "), at the first offending byte. Where a token was expected but another came,
// the token is read first: a malformed one is its own lexical error, a well-formed one the parse
// error of the place, an input that ends inside it the end of input.

extension JSONScanner {
    static let unexpectedEnd = "unexpected end of input"
    static let unallowedToken = "unallowed token at this point in JSON text"
    static let invalidKey = "invalid object key (must be a string)"
    static let missingColon = "object key and value must be separated by a colon (':')"
    static let afterMember = "after key and value, inside map, I expect ',' or '}'"
    static let afterElement = "after array element, I expect ',' or ']'"
    static let invalidChar = "invalid char in json text."
    static let invalidLiteral = "invalid string in json text."
    static let controlCharacter = "invalid character inside string."
    static let badEscape = "inside a string, '\\' occurs before a character which it may not."
    static let nonHex = "invalid (non-hex) character occurs after '\\u' inside string."
    static let minusSign = "malformed number, a digit is required after the minus sign."
    static let decimalPoint = "malformed number, a digit is required after the decimal point."
    static let exponent = "malformed number, a digit is required after the exponent."
    static let comment = "probable comment found in input text, comments are not enabled."
    static let byteOrderMark = "byte order mark (U+FEFF, bytes EF BB BF): JSON text may not begin with one"

    /// `error` at the byte `p` of the input that begins at `base`.
    @inline(__always)
    func located(_ error: JSONError, _ p: UnsafeRawPointer, _ base: UnsafeRawPointer) -> JSONError {
        var error = error
        error.offset = p - base
        return error
    }

    /// One of yajl's lexer errors, at `p`.
    func lexical(_ message: String, _ p: UnsafeRawPointer, _ base: UnsafeRawPointer) -> JSONError {
        located(JSONError(.syntax, "lexical error: " + message), p, base)
    }

    /// The size cap's error for a token (`kind`: "key", "string" or "number") that begins at `p`.
    func tooLong(_ kind: String, _ p: UnsafeRawPointer, _ base: UnsafeRawPointer) -> JSONError {
        located(JSONError.tokenTooLong(kind, limit: maxTokenLength), p, base)
    }

    /// What the failing token was to be, for the error's path: a value (an array's next element,
    /// the value after a key), a key (the path is then the object's), or nothing new (the path is
    /// where the scan stands).
    static func pending(_ state: State, _ stack: Stack) -> PendingToken? {
        switch state.next {
        case .value: return .value
        case .key: return .key
        case .first: return stack.inObject ? .key : .value
        case .colon, .afterValue: return nil
        }
    }

    /// A byte after the root value: trailing garbage, unless it begins a string or number over
    /// the size cap (a reader fed in pieces meets the cap first, reading that token).
    func trailingGarbage(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer) -> JSONError {
        let c = p.load(as: UInt8.self)
        let token: Step? = c == UInt8(ascii: "\"") ? stringEnd(p, end, base, isKey: false)
            : c == UInt8(ascii: "-") || c &- UInt8(ascii: "0") < 10 ? number(p, end, base) : nil
        // Over the cap, or not known yet: the input ends inside the token.
        if case .failed(let error)? = token, error.code == .sizeLimitExceeded || error.code == .unexpectedEnd { return error }
        return located(JSONError(.syntax, "trailing garbage"), p, base)
    }

    /// The input ended where `state` expected more.
    func failure(_ code: JSONError.Code, at p: UnsafeRawPointer, _ base: UnsafeRawPointer, _ end: UnsafeRawPointer,
                 _ stack: Stack, _ state: State) -> ScanOutcome {
        .failed(located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base), JSONScanner.pending(state, stack))
    }

    /// The error at `p`, where `state` expected other than what is there. `parse` is the error of
    /// the place for a well-formed token; nil where any well-formed token would do (a literal).
    @inline(never)
    func failure(at p: UnsafeRawPointer, _ base: UnsafeRawPointer, _ end: UnsafeRawPointer, _ stack: Stack, _ state: State,
                 parse: String?) -> ScanOutcome {
        let pending = JSONScanner.pending(state, stack)
        guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
        let parseError = parse.map { located(JSONError(.syntax, $0), p, base) }
        let c = p.load(as: UInt8.self)
        switch c {
        case 0xEF where state.atRoot:
            return .failed(located(JSONError(.syntax, JSONScanner.byteOrderMark), p, base), pending)
        case 0x0C:
            return .failed(located(JSONError(.syntax, "form feed (0x0C) is not JSON whitespace"), p, base), pending)
        case 0x0B:
            return .failed(located(JSONError(.syntax, "vertical tab (0x0B) is not JSON whitespace"), p, base), pending)
        case UInt8(ascii: "/"):
            return .failed(lexical(JSONScanner.comment, p, base), pending)
        case UInt8(ascii: "\""):
            if case .failed(let error) = stringEnd(p, end, base, isKey: state.next == .key) { return .failed(error, pending) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if case .failed(let error) = number(p, end, base) { return .failed(error, pending) }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word: StaticString = c == UInt8(ascii: "t") ? "true" : c == UInt8(ascii: "f") ? "false" : "null"
            if literal(p, end) == nil {
                // The input ends inside a literal, or the bytes are not one.
                if end - p < word.utf8CodeUnitCount, JSONScanner.spells(p, end, word, prefix: true) {
                    return .failed(located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base), pending)
                }
                return .failed(lexical(JSONScanner.invalidLiteral, p, base), pending)
            }
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            break
        default:
            return .failed(lexical(JSONScanner.invalidChar, p, base), pending)
        }
        return .failed(parseError ?? lexical(JSONScanner.invalidChar, p, base), pending)
    }

    /// The error at `p` (in bytes from `base` to `end`) where the grammar expects `next` inside an
    /// array: what a reader that frames records itself reports at a byte it cannot go on with.
    func error(at p: UnsafeRawPointer, base: UnsafeRawPointer, end: UnsafeRawPointer, expecting next: Next) -> JSONError {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { local in
            var stack = Stack(local)
            stack.push(object: false)
            let parse = next == .value ? JSONScanner.unallowedToken : JSONScanner.afterElement
            guard case .failed(let error, _) = failure(at: p, base, end, stack, State(next: next, atRoot: false), parse: parse) else {
                return located(JSONError(.syntax, parse), p, base)
            }
            return error
        }
    }
}
