// The checks every string, key and number token passes before the EventBuilder sees it, skipped
// subtrees included: strict UTF-8, strict surrogate escapes, and the size cap.
//
// Fast path: a token yajl hands over as a pointer into the buffer it is parsing is exactly the
// bytes as written (yajl copies a string only when it decodes escapes or when the token spans
// feeds), so its offset is known from the pointer and one pass of the UTF-8 validator settles it.
// Anything else takes the slow path, which finds the token as written (in the buffer, or in the
// bytes the Tokenizer holds from earlier feeds) only when yajl's copy could be wrong.

extension EventBuilder {
    /// A string value from yajl.
    @inline(__always)
    mutating func stringToken(_ bytes: UnsafeRawBufferPointer) -> Bool { textToken(bytes, isKey: false) }

    /// An object key from yajl.
    @inline(__always)
    mutating func keyToken(_ bytes: UnsafeRawBufferPointer) -> Bool { textToken(bytes, isKey: true) }

    /// Inlined into both callbacks with `isKey` constant, so each keeps its own straight path.
    @inline(__always)
    private mutating func textToken(_ bytes: UnsafeRawBufferPointer, isKey: Bool) -> Bool {
        if let base = bytes.baseAddress, base >= position.inputStart, base + bytes.count < position.inputEnd {
            lastTokenEnd = base + bytes.count + 1
            if bytes.count <= options.maxTokenLength, UTF8Validation.firstInvalid(bytes, readable: position.inputEnd) < 0 {
                return isKey ? key(bytes) : string(bytes)
            }
        }
        return checkTextSlow(bytes, isKey: isKey)
    }

    /// A number from yajl (its text as written).
    @inline(__always)
    mutating func numberToken(_ text: UnsafeRawBufferPointer) -> Bool {
        let inInput = text.baseAddress.map { $0 >= position.inputStart && $0 + text.count <= position.inputEnd } ?? false
        if inInput { lastTokenEnd = text.baseAddress! + text.count }
        if text.count > options.maxTokenLength {
            // yajl has consumed through the number's end (its terminator is not part of it).
            let end = inInput ? offset(of: text.baseAddress! + text.count) : tokenEnd()
            return failSize("number", at: cutTokenStart ?? end.map { $0 - text.count }, isKey: false)
        }
        return number(text)
    }

    // MARK: Slow path

    @inline(never)
    private mutating func checkTextSlow(_ bytes: UnsafeRawBufferPointer, isKey: Bool) -> Bool {
        // What yajl holds of a string the Tokenizer read past (never in the input range).
        if let start = cutTokenStart { return failSize("string", at: start, isKey: isKey) }
        let what = isKey ? "key" : "string"
        if let base = bytes.baseAddress, base >= position.inputStart, base + bytes.count < position.inputEnd {
            // As written: too long, or not UTF-8.
            let start = offset(of: base)
            if bytes.count > options.maxTokenLength { return failSize("string", at: start - 1, isKey: isKey) }
            let bad = UTF8Validation.firstInvalid(bytes)
            return failText(UTF8Validation.describe(bytes, at: bad) + " in a \(what)", at: start + bad, tokenLength: bytes.count + 2,
                            isKey: isKey)
        }
        // A copy: yajl decoded escapes, or the string spans feeds. The text as written settles it.
        let options = options
        func check(_ raw: UnsafeRawBufferPointer, _ start: Int) -> TextCheck {
            if raw.count > options.maxTokenLength { return .tooLong(start - 1) }
            let reject = options.invalidSurrogateEscapes == .reject
            // When rejecting, the check stops at the first problem of either kind; when replacing,
            // invalid UTF-8 wins over a bad surrogate escape.
            let found = EscapedText.check(raw, stopAtBadSurrogate: reject)
            if found.invalidUTF8 >= 0 {
                return .invalid(UTF8Validation.describe(raw, at: found.invalidUTF8), start + found.invalidUTF8)
            }
            guard found.badSurrogate >= 0 else { return .deliver }
            guard reject else { return .replace(EscapedText.decodeReplacingBadSurrogates(raw)) }
            let escape = found.badSurrogate
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[escape..<min(escape + 12, raw.count)]), as: UTF8.self)
            return .invalid("a \\u escape of a UTF-16 surrogate that is not part of a pair (\(text))", start + escape)
        }
        let outcome: TextCheck
        if let (raw, start) = copiedStringFromLastToken() {
            outcome = check(raw, start)
        } else if let found = withRawString(check) {
            outcome = found
        } else {
            outcome = UTF8Validation.firstInvalid(bytes) >= 0 ? .invalid("invalid UTF-8", nil) : .deliver
        }
        switch outcome {
        case .deliver:
            assert(UTF8Validation.firstInvalid(bytes) < 0, "yajl's copy of text checked as written is not UTF-8")
            return isKey ? key(bytes) : string(bytes)
        case .tooLong(let offset):
            return failSize("string", at: offset, isKey: isKey)
        case .invalid(let message, let offset):
            return failText(message + " in a \(what)", at: offset, tokenLength: bytes.count + 2, isKey: isKey)
        case .replace(let text):
            return text.withUnsafeBytes { isKey ? key($0) : string($0) }
        }
    }

    private enum TextCheck {
        case deliver
        case tooLong(Int)
        case invalid(String, Int?)
        case replace([UInt8])
    }

    /// The text as written of the string yajl has just finished, and the offset of its first
    /// byte, found forward from the end of the last string, key or number read from this buffer:
    /// between a token boundary and the string's opening quote there can only be whitespace,
    /// punctuation and literals, none holding a quote (a comment could: `/` gives up). A few bytes
    /// where `withRawString` scans the whole string backwards. Moves `lastTokenEnd` past it.
    private mutating func copiedStringFromLastToken() -> (UnsafeRawBufferPointer, Int)? {
        guard let from = lastTokenEnd, from >= position.inputStart, let end = tokenEnd() else { return nil }
        let close = position.inputStart + (end - 1 - position.consumedBefore)
        guard close >= from, close < position.inputEnd, close.load(as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
        var open = from
        while open < close {
            let c = open.load(as: UInt8.self)
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "/") { return nil }
            open += 1
        }
        guard open < close else { return nil }
        lastTokenEnd = close + 1
        return (UnsafeRawBufferPointer(start: open + 1, count: close - open - 1), offset(of: open + 1))
    }

    /// Calls `body` with the text as written of the string yajl has just finished (between its
    /// quotes) and the offset of its first byte, and returns its result; nil when the text cannot
    /// be found. Moves `lastTokenEnd` past it when it ends in the buffer being parsed, so the next
    /// copied string is found forward from there, and a feed ending inside a token keeps only the
    /// bytes after it.
    private mutating func withRawString<R>(_ body: (UnsafeRawBufferPointer, Int) -> R) -> R? {
        guard let end = tokenEnd() else { return nil }
        let input = position.input
        let close = end - 1 - position.consumedBefore   // the closing quote, in `input`
        guard close >= 0, close < input.count, input[close] == UInt8(ascii: "\"") else { return nil }
        lastTokenEnd = position.inputStart + close + 1
        let carry = position.carry
        if let open = TokenScanner.openingQuote(in: input, closingAt: close, startsAtBoundary: carry.count == 0) {
            return body(UnsafeRawBufferPointer(rebasing: input[(open + 1)..<close]), position.consumedBefore + open + 1)
        }
        // The string began in bytes fed earlier, which the Tokenizer holds.
        let joinedStart = position.consumedBefore - carry.count
        return TokenScanner.withJoined(carry, UnsafeRawBufferPointer(rebasing: input[..<close])) { all in
            guard let open = TokenScanner.openingQuote(in: all, closingAt: all.count, startsAtBoundary: true) else { return nil }
            return body(UnsafeRawBufferPointer(rebasing: all[(open + 1)...]), joinedStart + open + 1)
        }
    }

    /// The offset in the whole input of a byte of the buffer being parsed.
    private func offset(of pointer: UnsafeRawPointer) -> Int {
        position.consumedBefore + (pointer - position.inputStart)
    }

    /// One past the token yajl has just finished, in the whole input.
    func tokenEnd() -> Int? {
        guard let handle = position.handle else { return nil }
        return position.consumedBefore + position.resumedAt + Tokenizer<EventBuilder>.bytesConsumed(handle)
    }

    private mutating func failSize(_ what: String, at offset: Int?, isKey: Bool) -> Bool {
        var error = tokenTooLong(what, isKey: isKey)
        error.offset = offset
        return failPending(error, isKey: isKey)
    }

    private mutating func failText(_ message: String, at offset: Int?, tokenLength: Int, isKey: Bool) -> Bool {
        var error = JSONError(.invalidUnicode, message)
        error.offset = offset
        return failPending(error, isKey: isKey, tokenLength: tokenLength)
    }

    private mutating func failPending(_ error: JSONError, isKey: Bool, tokenLength: Int = 0) -> Bool {
        var error = error
        placePending(&error, isKey ? .key : .value)
        return fail(error, nil, tokenLength: tokenLength, placed: true)
    }

    /// Places an error in a token that has not reached the frames yet: its path is that of the
    /// value it begins, or for a key, the object's; its property, the one being read (for a key,
    /// the one its object is read for). These checks and the Tokenizer's size cap on a token that
    /// spans feeds both place their errors here, so one whole buffer and any chunking name the
    /// same path and property.
    mutating func placePending(_ error: inout JSONError, _ pending: PendingToken) {
        if pending == .key { dropCurrentKey() }
        error.path = currentPath(pending: pending)
        if error.property == nil { error.property = enclosingProperty() }
    }
}
