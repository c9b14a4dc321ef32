// The checks every string, key and number token from yajl passes before the EventBuilder sees it:
// strict UTF-8, strict surrogate escapes, and the size cap (the scanner's tokens are checked as
// they are read).
//
// Fast path: a token yajl hands over as a pointer into the buffer it is parsing is exactly the
// bytes as written (yajl copies a string only when it decodes escapes or when the token spans
// feeds), so one pass of the UTF-8 validator settles it. Any other string is checked as written
// by the grammar (`JSONScanner.stringEnd`): its bytes lie between the last token boundary and
// where yajl stands (`FeedPosition`).

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
        if let base = bytes.baseAddress, base >= position.inputStart, base + bytes.count < position.inputEnd,
           bytes.count <= options.maxTokenLength, UTF8Validation.firstInvalid(bytes, readable: position.inputEnd) < 0 {
            return isKey ? key(bytes) : string(bytes)
        }
        return checkTextSlow(bytes, isKey: isKey)
    }

    /// A number from yajl (its text as written).
    @inline(__always)
    mutating func numberToken(_ text: UnsafeRawBufferPointer) -> Bool {
        if text.count > options.maxTokenLength {
            var error = JSONError.tokenTooLong("number", limit: options.maxTokenLength)
            error.offset = position.tokenStart(comments: options.allowComments)
            return failPending(error, isKey: false)
        }
        return number(text)
    }

    /// The string as written, from its opening quote (the first byte after the last boundary) to
    /// where yajl stands, checked by the grammar: its error, or the text to hand over.
    @inline(never)
    private mutating func checkTextSlow(_ bytes: UnsafeRawBufferPointer, isKey: Bool) -> Bool {
        let start = position.tokenStart(comments: options.allowComments)
        let scanner = self.scanner
        let outcome: Result<[UInt8]?, JSONScanner.Failure> = position.withBytes(from: start, to: position.boundary) { raw in
            guard let open = raw.baseAddress, raw.count >= 2 else { return .success(nil) }
            switch scanner.stringEnd(open, open + raw.count, open, isKey: isKey) {
            case .failed(var error):
                error.offset = (error.offset ?? 0) + start
                return .failure(JSONScanner.Failure(error: error))
            case .next, .stopped:
                // yajl decodes a bad surrogate escape its own way: replaced, the text is decoded here.
                guard scanner.replacesBadSurrogates else { return .success(nil) }
                return .success(EscapedText.decodeReplacingBadSurrogates(UnsafeRawBufferPointer(rebasing: raw[1..<(raw.count - 1)])))
            }
        }
        switch outcome {
        case .failure(let failure):
            return failPending(failure.error, isKey: isKey)
        case .success(let decoded?):
            return decoded.withUnsafeBytes { isKey ? key($0) : string($0) }
        case .success(nil):
            return isKey ? key(bytes) : string(bytes)
        }
    }

    private mutating func failPending(_ error: JSONError, isKey: Bool) -> Bool {
        var error = error
        if error.code == .sizeLimitExceeded { failedBeforeFrames = true }
        placePending(&error, isKey ? .key : .value)
        return fail(error, nil, placed: true)
    }

    /// One past the token yajl has just finished, in the whole input; while the scanner reads,
    /// one past the token it handed over last.
    func tokenEnd() -> Int? {
        if position.handle != nil { return position.boundary }
        return scannedTokenEnd >= 0 ? scanBase + scannedTokenEnd : nil
    }

    /// Places an error in a token that has not reached the frames yet: its path is that of the
    /// value it begins, or for a key, the object's; its property, the one being read (for a key,
    /// the one its object is read for). Both readers place their errors here, so one whole
    /// buffer and any chunking name the same path and property.
    mutating func placePending(_ error: inout JSONError, _ pending: PendingToken) {
        if pending == .key { dropCurrentKey() }
        error.path = currentPath(pending: pending)
        if error.property == nil { error.property = enclosingProperty() }
    }
}
