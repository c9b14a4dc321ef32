// Errors in a token yajl has not finished: one that spans feeds, passes the size cap, or is left
// open at the end of the input. yajl cannot say where such a token began, so these find it in
// the bytes themselves (TokenScanner). Error paths only: nothing here runs per event.
private import CYajl

extension Tokenizer {
    /// yajl accepts a complete value followed by a string (or comment) the input ends inside
    /// (`{"a": 1} "`): it waits for the token to end and then finds nothing to complain about.
    func checkNothingLeftOpen(whole: UnsafeRawBufferPointer?) throws(JSONError) {
        var bytes = held.bytes
        if let whole, let base = whole.baseAddress {
            // From the end of the last token read straight from the buffer: a token boundary.
            var from = 0
            if let end = builder.pointee.lastTokenEnd, end >= base, end <= base + whole.count { from = end - base }
            bytes = UnsafeRawBufferPointer(rebasing: whole[from...])
        }
        guard let open = TokenScanner(bytes: bytes, allowComments: allowComments).openToken(),
              open.kind == .string || open.kind == .punctuation else { return }
        if open.kind == .string, open.contentLength(upTo: bytes.count) > maxTokenLength {
            // After the value, outside any container: the path is `$`.
            throw tokenTooLong(.string, at: consumedBefore - bytes.count + open.start, pending: .value)
        }
        var error = JSONError(.syntax, "trailing garbage: the input ends inside a \(open.kind == .string ? "string" : "comment") after the value")
        error.offset = consumedBefore
        lines?.locate(&error, offset: consumedBefore, at: consumedBefore)
        throw error
    }

    /// The input ended inside a string: a key the object has not read yet (after `,` or `{`)
    /// replaces the one before it, so the error's path is the object's own, not the stale key's
    /// (a value's, after `:`, or an array's next element, is placed as the builder places it).
    func placeCutString(_ error: inout JSONError, whole: UnsafeRawBufferPointer?) {
        var bytes = held.bytes
        if let whole, let base = whole.baseAddress {
            // From the end of the last token read straight from the buffer: a token boundary.
            var from = 0
            if let end = builder.pointee.lastTokenEnd, end >= base, end <= base + whole.count { from = end - base }
            bytes = UnsafeRawBufferPointer(rebasing: whole[from...])
        }
        let (last, previous) = TokenScanner(bytes: bytes, allowComments: allowComments).lastTwoTokens()
        guard let open = last, open.open, open.kind == .string else { return }
        builder.pointee.placePending(&error, pendingToken(after: previous, in: bytes))
    }

    /// yajl points a parse error past the token it rejects (into it, for "after key and value"),
    /// the lexical error of a byte no token starts with past that byte, and a misspelled `true`,
    /// `false` or `null` at the byte that does not fit: moves the error to the first byte of that
    /// token or byte. (yajl's other lexical errors point at the byte that is wrong inside a token
    /// already: a bad escape, a number without its digit.) A byte order mark at the start is named.
    func pointAtOffendingStart(_ error: inout JSONError, yajlOffset offset: Int, parseError: Bool,
                               chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer) {
        let misspelledLiteral = !parseError && error.message.contains("invalid string in json text")
        if !parseError && !misspelledLiteral {
            guard error.message.contains("invalid char in json text"), offset > 0 else { return }
            error.offset = offset - 1
            // 0xEF where the text's first token should be (after whitespace only): a byte order mark.
            let i = offset - 1 - (consumedBefore - carry.count)
            if offset - 1 == firstNonBlankOffset, i >= 0, i < carry.count + chunk.count,
               (i < carry.count ? carry[i] : chunk[i - carry.count]) == 0xEF {
                error.message = "byte order mark (U+FEFF, bytes EF BB BF): JSON text may not begin with one"
            }
            return
        }
        // A `/` where comments are not allowed is a lexical error that yajl unreads: as trailing
        // garbage right after the value, yajl points at the `/` itself, which is the offending
        // token's start already (not the end of the token before it). Other garbage yajl reads
        // whole and points past, maybe at a `/` after it (`false}/`): its lexer tells them apart.
        if parseError, !allowComments, error.message.hasPrefix("trailing garbage") {
            let i = offset - (consumedBefore - carry.count)
            if i >= 0, i < carry.count + chunk.count, (i < carry.count ? carry[i] : chunk[i - carry.count]) == UInt8(ascii: "/"),
               magma_yajl_stopped_at_slash(handle) != 0 {
                return
            }
        }
        // Scanning from the end of the last string, key or number read from this feed (a token
        // boundary before the offending token) keeps this short in a large buffer.
        var carry = carry, chunk = chunk, base = consumedBefore - carry.count
        if let end = builder.pointee.lastTokenEnd, let start = chunk.baseAddress, end >= start, end <= start + chunk.count,
           consumedBefore + (end - start) < offset {
            chunk = UnsafeRawBufferPointer(rebasing: chunk[(end - start)...])
            base = consumedBefore + (end - start)
            carry = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        // yajl points "after key and value" into the token (its end less its decoded length), a
        // misspelled literal at the byte that does not fit, the other parse errors at the end.
        let at: TokenAt = misspelledLiteral || error.message.hasPrefix("after key and value") ? .holding(offset) : .endingAt(offset)
        let found = TokenScanner.withJoined(carry, chunk) { bytes in
            Tokenizer.tokenStart(at, in: bytes, from: base, allowComments: allowComments)
        }
        if let found { error.offset = found }
    }

    /// The start of the token of `bytes` (the input from offset `base`, from a token boundary)
    /// that holds or ends at the offset `at` gives (not `.containing`), as an offset in the input.
    static func tokenStart(_ at: TokenAt, in bytes: UnsafeRawBufferPointer, from base: Int, allowComments: Bool) -> Int? {
        var found: Int?
        TokenScanner(bytes: bytes, allowComments: allowComments).forEachToken { token in
            let start = token.start + base, end = token.end + base
            switch at {
            case .holding(let p), .containing(let p):
                if start <= p, p < end || token.open { found = start; return false }
                return start <= p
            case .endingAt(let p):
                if start < p, p <= end { found = start; return false }
                return start < p
            }
        }
        return found
    }

    /// The size cap's error for the string or number of `kind` that begins at `offset` in the
    /// whole input, placed as the builder places its own for the token pending there (path and
    /// property alike) and, when lines are tracked, with its line and column (`chunk`: the feed
    /// under way, whose lines are not counted yet).
    func tokenTooLong(_ kind: TokenScanner.Kind, at offset: Int, pending: PendingToken,
                      chunk: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> JSONError {
        var error = builder.pointee.tokenTooLong(kind.name, isKey: kind == .string && pending == .key)
        builder.pointee.placePending(&error, pending)
        error.offset = offset
        lines?.locate(&error, offset: offset, chunk: chunk, at: consumedBefore)
        return error
    }

    enum TokenAt {
        /// The token yajl stopped inside, at this offset (a lexical error): as far as it goes.
        case containing(Int)
        /// The whole token holding this offset ("after key and value", which yajl points into it).
        case holding(Int)
        /// The token ending at this offset (yajl's other parse errors), else the one yajl stopped
        /// inside there ("trailing garbage" after a lexical error in the garbage).
        case endingAt(Int)
    }

    /// The string or number at `position` (offsets in the whole input), with its start and what
    /// it is (a key or a value), if it is longer than the size cap (as far as it goes, for one
    /// yajl stopped inside).
    func overlongToken(at position: TokenAt, chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer)
        -> (start: Int, kind: TokenScanner.Kind, pending: PendingToken)? {
        let base = consumedBefore - carry.count
        return TokenScanner.withJoined(carry, chunk) { bytes -> (start: Int, kind: TokenScanner.Kind, pending: PendingToken)? in
            var found: TokenScanner.Token?
            var previous: TokenScanner.Token?, beforeFound: TokenScanner.Token?
            var inside = false
            TokenScanner(bytes: bytes, allowComments: allowComments).forEachToken { token in
                defer { previous = token }
                let start = token.start + base, end = token.end + base
                func take() { found = token; beforeFound = previous }
                switch position {
                case .containing(let p), .holding(let p):
                    if start <= p && p < end || token.open && start <= p { take() }
                    // A malformed number ("1." or "1e" and then no digit): yajl stops at the byte
                    // after the text the scanner takes for the number.
                    if case .containing = position, token.kind == .number, end == p { take(); return false }
                    if end > p { return false }
                case .endingAt(let p):
                    if end == p, start < p { take(); return false }
                    if start <= p && p < end || token.open && start <= p { take(); inside = true }
                    if end > p { return false }
                }
                return true
            }
            guard let token = found, token.kind == .string || token.kind == .number else { return nil }
            var end = token.end + base
            switch position {
            case .containing(let p) where token.open || p < end - 1: end = p
            case .endingAt(let p) where inside: end = p
            default: break
            }
            guard token.contentLength(upTo: end - base) > maxTokenLength else { return nil }
            return (token.start + base, token.kind, pendingToken(after: beforeFound, in: bytes))
        }
    }

    /// What the string or number after `previous` (a token of `bytes`, nil at their start) is,
    /// for the path of an error in it.
    func pendingToken(after previous: TokenScanner.Token?, in bytes: UnsafeRawBufferPointer) -> PendingToken {
        builder.pointee.pendingToken(afterColon: Tokenizer.isColon(previous, in: bytes))
    }

    /// Whether `token` (of `bytes`) is a `:`.
    static func isColon(_ token: TokenScanner.Token?, in bytes: UnsafeRawBufferPointer) -> Bool {
        token.map { $0.kind == .punctuation && bytes[$0.start] == UInt8(ascii: ":") } ?? false
    }

    /// Where yajl would point a parse error at the token begun in `carry` and ended in `chunk`
    /// if it had seen them as one buffer.
    func spanningTokenOffset(chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer) -> Int? {
        TokenScanner.withJoined(carry, chunk) { bytes in
            let scanner = TokenScanner(bytes: bytes, allowComments: allowComments)
            // A number ending right at the feed's start was completed by this feed's first byte.
            guard let token = scanner.firstToken(endingAfter: carry.count),
                  token.start < carry.count else { return nil }
            return consumedBefore - carry.count + token.end - token.yajlLength
        }
    }
}
