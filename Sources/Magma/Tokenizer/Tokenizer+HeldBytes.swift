// The Tokenizer's held bytes: what it keeps of earlier feeds while a token is open across them,
// so that yajl's re-lexing stays linear, the size cap is checked as the token grows, and a
// token's error is placed as one whole buffer places it (see `HeldBytes` and `Tokenizer.feed`).

extension Tokenizer {
    /// Feeds the held-back bytes.
    /// - Returns: Whether they produced events.
    @discardableResult
    mutating func feedHeld() throws(JSONError) -> Bool {
        let heldBack = held.heldBackBytes
        let producedEvents = try feedDirect(heldBack, carry: held.fedBytes)
        held.markAllFed()
        if !producedEvents {
            // Bytes are held back only while a token yajl re-lexes is open across feeds; a feed
            // of whitespace between tokens (endless, from a hostile stream) is dropped instead.
            if TokenScanner(bytes: held.bytes, allowComments: allowComments).openToken() != nil {
                stallSize = heldBack.count
            } else {
                stallSize = 0
                dropToOpenToken()
                // Left: nothing, or a last `,` `:` `[` `{` and whitespace after it. The next
                // token's position is found from its own bytes, and only what that punctuation is
                // matters (a key or a value next): the whitespace goes too.
                held.keepFirst(1)
            }
        } else {
            stallSize = 0
            if let end = builder.pointee.lastTokenEnd, let index = held.index(of: end) {
                dropHeld(index)
            } else {
                dropToOpenToken()
            }
        }
        return producedEvents
    }

    /// After a feed of `fed` (straight from the caller) that produced events: keeps the bytes after
    /// the last token read straight from it, or else from the start of the token left open.
    mutating func keepOpenToken(fed chunk: UnsafeRawBufferPointer) {
        let base = chunk.baseAddress.unsafelyUnwrapped
        if let end = builder.pointee.lastTokenEnd, end >= base, end <= base + chunk.count {
            held.removeAll()
            held.append(UnsafeRawBufferPointer(rebasing: chunk[(end - base)...]))
            held.markAllFed()
        } else {
            // No token read straight from this chunk: find the open token by scanning from the
            // boundary the held bytes start at.
            held.append(chunk)
            held.markAllFed()
            dropToOpenToken()
        }
    }

    /// Drops the fed held bytes before the token still open (all of them when none is open).
    /// The token before it is kept too (a `,` or `:`, a few bytes).
    mutating func dropToOpenToken() {
        let scanner = TokenScanner(bytes: held.fedBytes, allowComments: allowComments)
        let (last, previous) = scanner.lastTwoTokens()
        guard let last else { return dropHeld(held.fedCount) }
        if last.open { return dropHeld(previous?.start ?? last.start) }
        // Nothing open: keep a last `,` `:` `[` `{`, which the next token's position depends on.
        dropHeld(last.kind == .punctuation ? last.start : held.fedCount)
    }

    mutating func dropHeld(_ count: Int) {
        guard count > 0 else { return }
        held.removeFirst(count)
        if held.count < maxTokenLength { nextSizeCheck = maxTokenLength &+ 1 }
    }

    /// The string or number still open in the held bytes must not pass the size cap. Runs when
    /// the held bytes pass the cap and then each time they grow by a quarter: O(n) in all.
    mutating func checkOpenTokenSize() throws(JSONError) {
        let scanner = TokenScanner(bytes: held.bytes, allowComments: allowComments)
        if let (open, previous) = scanner.openToken(longerThan: maxTokenLength) {
            if open.start >= held.fedCount {
                // yajl has not reached the token: feed it what comes before, which may hold an
                // error of its own (one whole buffer would report that first).
                try feedHeld()
                if held.fedCount == held.count, stallSize > 0 { try checkOpenTokenSize() }
                return
            }
            var token = OverlongToken(kind: open.kind, start: consumedBefore - held.fedCount + open.start,
                                      afterColon: Tokenizer.isColon(previous, in: scanner.bytes))
            let content = open.kind == .string ? open.start + 1 : open.start
            let rejected = if case .invalid = token.advance(over: UnsafeRawBufferPointer(rebasing: scanner.bytes[content...])) {
                true
            } else { false }
            // A string yajl will reject within what is held fails with yajl's error, as from
            // one whole buffer: feed on.
            if !(open.kind == .string && rejected) {
                guard builder.pointee.recoversHere else { throw overlongError(token) }
                return try beginSkipping(token)
            }
        }
        // Only the fed bytes before the token yajl holds open may go.
        dropToOpenToken()
        nextSizeCheck = max(held.count + held.count / 4 + 1, maxTokenLength &+ 1)
    }
}
