// The bridge to yajl, and the only Swift file that imports CYajl: no C type leaves this file.
//
// yajl keeps a pointer to the callback table, so the table is allocated once, for the life of
// the process, and never moves. Callbacks capture nothing: each recovers the EventBuilder from the
// context pointer (a raw pointer to the builder's storage, so there is no retain/release per event)
// and forwards to one method. A method that fails has already stored its error in the builder and
// returns false, which stops yajl (`yajl_status_client_canceled`).
private import CYajl
#if canImport(Glibc)
import Glibc
#endif

/// One yajl handle fed chunk by chunk. Not copyable: it owns the handle.
///
/// Beyond yajl, it closes yajl's gaps that need the bytes themselves: form feed and vertical tab
/// are not JSON whitespace (yajl skips them), a string or number may not pass the size cap, and a
/// syntax error in a token that spans feeds is reported where it is in one whole buffer (yajl
/// clamps it to the start of the feed). For those it holds the bytes from the start of the token
/// still open at the end of a feed (see `held`).
struct Tokenizer: ~Copyable {
    private let handle: yajl_handle
    private let builder: UnsafeMutablePointer<EventBuilder>
    /// Bytes handed to yajl before the current feed: turns yajl's per-feed offsets into absolute ones.
    private var consumedBefore = 0
    /// Lines seen in bytes before `consumedBefore` (only kept when `tracksLines`).
    private var lineCount = 0
    private var lastLineStart = 0
    /// Whole-buffer decoding computes line and column from the buffer on error instead.
    private let tracksLines: Bool
    private let allowComments: Bool
    private let maxTokenLength: Int
    /// Held bytes. `[0, heldFed)` were fed to yajl: they begin at a token boundary at or before
    /// any token still open and end at `consumedBefore`. `[heldFed, heldCount)` are held back, not
    /// fed yet (see `feed`).
    private var held: UnsafeMutableRawPointer?
    private var heldCapacity = 0
    private var heldCount = 0
    private var heldFed = 0
    private var stallSize = 0
    /// `heldCount` at which the held bytes are next checked against the size cap.
    private var nextSizeCheck: Int
    /// How many times yajl was fed (tests check that a long token costs O(log n) feeds).
    private(set) var feedCount = 0
    /// The most bytes held at once (tests check a long token is held in O(cap)).
    private(set) var mostHeld = 0

    /// Reads `allowComments` and `maxTokenLength` from the builder's options.
    /// - Parameter multipleValues: Accept a sequence of top-level values (concatenated records).
    init(builder: UnsafeMutablePointer<EventBuilder>, multipleValues: Bool = false, tracksLines: Bool) {
        self.builder = builder
        self.tracksLines = tracksLines
        allowComments = builder.pointee.options.allowComments
        maxTokenLength = builder.pointee.options.maxTokenLength
        nextSizeCheck = maxTokenLength &+ 1
        handle = yajl_alloc(Tokenizer.callbacks, nil, UnsafeMutableRawPointer(builder))
        if allowComments { _ = magma_yajl_config(handle, yajl_allow_comments, 1) }
        if multipleValues { _ = magma_yajl_config(handle, yajl_allow_multiple_values, 1) }
        // EventBuilder+Text checks every string strictly; yajl's structural check is redundant.
        _ = magma_yajl_config(handle, yajl_dont_validate_strings, 1)
    }

    deinit {
        if builder.pointee.position.handle == handle { builder.pointee.position = FeedPosition() }
        yajl_free(handle)
        held?.deallocate()
    }

    /// Bytes the handle has consumed in the feed under way (valid inside callbacks).
    static func bytesConsumed(_ handle: OpaquePointer) -> Int { yajl_get_bytes_consumed(handle) }

    /// Parses the whole input in one call and completes it.
    /// - Throws: `JSONError` with offset, line and column computed from `input`.
    mutating func parseAll(_ input: UnsafeRawBufferPointer) throws(JSONError) {
        do {
            try feedDirect(input, carry: UnsafeRawBufferPointer(start: nil, count: 0))
            try finish(whole: input)
        } catch var error {
            if let offset = error.offset { locate(&error, offset: offset, in: input) }
            throw error
        }
    }

    /// Feeds one chunk. Any chunking gives the same events, and the same errors, as one whole buffer.
    ///
    /// yajl re-lexes a token that spans feeds from its start on every feed, so a 64 MiB string fed
    /// in 64 KiB chunks would cost quadratic time. When a feed produces no event, later chunks are
    /// held back until they add up to twice that feed, which keeps the total work linear; and the
    /// token under way is checked against the size cap as the held bytes grow, so an endless
    /// string fails at the cap, not at the end of the input.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(JSONError) {
        guard chunk.count > 0 else { return }
        if stallSize > 0 {
            append(chunk)
            if heldCount >= nextSizeCheck { try checkOpenTokenSize() }
            if heldCount - heldFed < 2 * stallSize { return }
            try feedHeld()
            return
        }
        if try !feedDirect(chunk, carry: UnsafeRawBufferPointer(start: held, count: heldCount)) {
            stallSize = chunk.count
            append(chunk)
            heldFed = heldCount
            if heldCount >= nextSizeCheck { try checkOpenTokenSize() }
        } else {
            keepOpenToken(fed: chunk)
        }
    }

    /// Feeds the held-back bytes.
    /// - Returns: Whether they produced events.
    @discardableResult
    private mutating func feedHeld() throws(JSONError) -> Bool {
        let base = held.unsafelyUnwrapped
        let size = heldCount - heldFed
        let producedEvents = try feedDirect(UnsafeRawBufferPointer(start: base + heldFed, count: size),
                                            carry: UnsafeRawBufferPointer(start: base, count: heldFed))
        heldFed = heldCount
        if !producedEvents {
            stallSize = size
        } else {
            stallSize = 0
            if let end = builder.pointee.lastTokenEnd, end >= UnsafeRawPointer(base), end <= UnsafeRawPointer(base + heldCount) {
                dropHeld(end - UnsafeRawPointer(base))
            } else {
                dropToOpenToken()
            }
        }
        return producedEvents
    }

    /// After a feed of `fed` (straight from the caller) that produced events: keeps the bytes after
    /// the last token read straight from it, or else from the start of the token left open.
    private mutating func keepOpenToken(fed chunk: UnsafeRawBufferPointer) {
        let base = chunk.baseAddress.unsafelyUnwrapped
        if let end = builder.pointee.lastTokenEnd, end >= base, end <= base + chunk.count {
            heldCount = 0
            append(UnsafeRawBufferPointer(rebasing: chunk[(end - base)...]))
            heldFed = heldCount
        } else {
            // No token read straight from this chunk: find the open token by scanning from the
            // boundary the held bytes start at.
            append(chunk)
            heldFed = heldCount
            dropToOpenToken()
        }
    }

    /// Drops the fed held bytes before the token still open (all of them when none is open).
    /// The token before it is kept too (a `,` or `:`, a few bytes).
    private mutating func dropToOpenToken() {
        let scanner = TokenScanner(bytes: UnsafeRawBufferPointer(start: held, count: heldFed), allowComments: allowComments)
        let (last, previous) = scanner.lastTwoTokens()
        guard let last else { return dropHeld(heldFed) }
        if last.open { return dropHeld(previous?.start ?? last.start) }
        // Nothing open: keep a last `,` `:` `[` `{`, which the next token's position depends on.
        dropHeld(last.kind == .punctuation ? last.start : heldFed)
    }

    private mutating func dropHeld(_ count: Int) {
        guard count > 0, let held else { return }
        (held).copyMemory(from: held + count, byteCount: heldCount - count)
        heldCount -= count
        heldFed -= count
        if heldCount < maxTokenLength { nextSizeCheck = maxTokenLength &+ 1 }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if heldCount + bytes.count > heldCapacity {
            let capacity = max(heldCount + bytes.count, heldCapacity * 2, 256)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            if let held { grown.copyMemory(from: held, byteCount: heldCount); held.deallocate() }
            held = grown
            heldCapacity = capacity
        }
        (held.unsafelyUnwrapped + heldCount).copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count)
        heldCount += bytes.count
        mostHeld = max(mostHeld, heldCount)
    }

    /// The string or number still open in the held bytes must not pass the size cap. Runs when
    /// the held bytes pass the cap and then each time they grow by a quarter: O(n) in all.
    private mutating func checkOpenTokenSize() throws(JSONError) {
        let scanner = TokenScanner(bytes: UnsafeRawBufferPointer(start: held, count: heldCount), allowComments: allowComments)
        let (last, previous) = scanner.lastTwoTokens()
        if let open = last, open.open, open.kind == .string || open.kind == .number {
            if open.contentLength(upTo: heldCount) > maxTokenLength {
                if open.start >= heldFed {
                    // yajl has not reached the token: feed it what comes before, which may hold an
                    // error of its own (one whole buffer would report that first).
                    try feedHeld()
                    if heldFed == heldCount, stallSize > 0 { try checkOpenTokenSize() }
                    return
                }
                // A string yajl will reject within what is held fails with yajl's error, as from
                // one whole buffer: feed on.
                if !(open.kind == .string && scanner.holdsLexicalError((open.start + 1)..<heldCount)) {
                    throw tokenTooLong(open.kind, at: consumedBefore - heldFed + open.start,
                                       pending: pendingToken(after: previous, in: scanner.bytes))
                }
            }
        }
        // Only the fed bytes before the token yajl holds open may go.
        dropToOpenToken()
        nextSizeCheck = max(heldCount + heldCount / 4 + 1, maxTokenLength &+ 1)
    }

    /// Ends the input: flushes held-back bytes and reports a value left incomplete.
    mutating func finish() throws(JSONError) {
        try finish(whole: nil)
    }

    /// `whole` is the whole input when it was parsed in one buffer.
    private mutating func finish(whole: UnsafeRawBufferPointer?) throws(JSONError) {
        if heldFed < heldCount { try feedHeld() }
        builder.pointee.position = FeedPosition(handle: handle, consumedBefore: consumedBefore,
                                                carry: UnsafeRawBufferPointer(start: held, count: heldFed))
        let status = yajl_complete_parse(handle)
        if status != yajl_status_ok {
            var error = error(status, chunk: UnsafeRawBufferPointer(start: nil, count: 0),
                              carry: UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
            // Input that ends inside a string or number already over the cap: the cap comes first,
            // as it does when the input is fed in chunks.
            if error.code == .unexpectedEnd, consumedBefore > maxTokenLength {
                let bytes = whole ?? UnsafeRawBufferPointer(start: held, count: heldFed)
                let base = consumedBefore - bytes.count
                let (last, previous) = TokenScanner(bytes: bytes, allowComments: allowComments).lastTwoTokens()
                if let open = last, open.open, open.kind == .string || open.kind == .number,
                   open.contentLength(upTo: bytes.count) > maxTokenLength {
                    error = tokenTooLong(open.kind, at: base + open.start, pending: pendingToken(after: previous, in: bytes))
                }
            }
            throw error
        }
        try checkNothingLeftOpen(whole: whole)
    }

    /// yajl accepts a complete value followed by a string (or comment) the input ends inside
    /// (`{"a": 1} "`): it waits for the token to end and then finds nothing to complain about.
    private func checkNothingLeftOpen(whole: UnsafeRawBufferPointer?) throws(JSONError) {
        var bytes = UnsafeRawBufferPointer(start: held, count: heldCount)
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
        if tracksLines { locate(&error, offset: consumedBefore, chunk: UnsafeRawBufferPointer(start: nil, count: 0)) }
        throw error
    }

    /// The size cap's error for the string or number of `kind` that begins at `offset` in the
    /// whole input, with the path of the token pending there and, when lines are tracked, its
    /// line and column (`chunk`: the feed under way, whose lines are not counted yet).
    private func tokenTooLong(_ kind: TokenScanner.Kind, at offset: Int, pending: EventBuilder.PendingToken,
                              chunk: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> JSONError {
        var error = JSONError.tokenTooLong(kind.name, limit: maxTokenLength)
        error.offset = offset
        error.path = builder.pointee.currentPath(pending: pending)
        if tracksLines { locate(&error, offset: offset, chunk: chunk) }
        return error
    }

    /// Feeds `chunk` to yajl; `carry` is the held bytes before it (see `FeedPosition`).
    /// - Returns: Whether the feed produced events.
    @discardableResult
    private mutating func feedDirect(_ chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer) throws(JSONError) -> Bool {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return false }
        feedCount += 1
        builder.pointee.position = FeedPosition(handle: handle, consumedBefore: consumedBefore, inputStart: base,
                                                inputEnd: base + chunk.count, carry: carry)
        // Set again by the tokens yajl reads straight from this chunk.
        builder.pointee.lastTokenEnd = nil
        // yajl skips form feed and vertical tab as whitespace. Inside a string they are control
        // characters yajl rejects; anywhere else they are an error here: feed yajl up to the first
        // one, and if yajl took it, it was whitespace.
        var length = chunk.count
        var stray = -1
        if !allowComments, let found = Tokenizer.firstFormFeedOrVerticalTab(chunk) {
            stray = found
            length = found + 1
        }
        let eventsBefore = builder.pointee.eventCount
        let status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), length)
        let producedEvents = builder.pointee.eventCount != eventsBefore
        if status != yajl_status_ok {
            throw error(status, chunk: chunk, carry: carry, atEnd: false, feedProducedEvents: producedEvents)
        }
        if stray >= 0 {
            var error = JSONError(.syntax, chunk[stray] == 0x0C ? "form feed (0x0C) is not JSON whitespace"
                                                                : "vertical tab (0x0B) is not JSON whitespace")
            error.offset = consumedBefore + stray
            error.path = builder.pointee.currentPath()
            if tracksLines { locate(&error, offset: consumedBefore + stray, chunk: chunk) }
            throw error
        }
        if tracksLines { countLines(chunk) }
        consumedBefore += chunk.count
        return producedEvents
    }

    /// Block by block, so the second search reads bytes the first has just brought into cache
    /// (two passes over a 64 MB buffer from memory were 3 % of a decode).
    private static func firstFormFeedOrVerticalTab(_ chunk: UnsafeRawBufferPointer) -> Int? {
        let base = chunk.baseAddress.unsafelyUnwrapped
        var start = 0
        while start < chunk.count {
            var end = min(start + 16_384, chunk.count)
            var found: Int?
            if let p = memchr(base + start, 0x0C, end - start) { found = UnsafeRawPointer(p) - base; end = found! }
            if end > start, let p = memchr(base + start, 0x0B, end - start) { found = UnsafeRawPointer(p) - base }
            if let found { return found }
            start = end
        }
        return nil
    }

    /// - Parameter feedProducedEvents: Whether the feed that failed produced events before (not at the end).
    private func error(_ status: yajl_status, chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer, atEnd: Bool,
                       feedProducedEvents: Bool = false) -> JSONError {
        let consumed = atEnd ? 0 : yajl_get_bytes_consumed(handle)
        var error: JSONError
        if status == yajl_status_client_canceled, let stored = builder.pointee.takeError() {
            error = stored
            // The builder stopped inside the callback of the offending token: yajl has consumed
            // through its end, and the builder knows the token's length.
            let offset = consumedBefore + consumed - builder.pointee.failureTokenLength
            error.offset = error.offset ?? max(offset, 0)
        } else {
            let raw = yajl_get_error(handle, 0, nil, 0)
            var message = raw.map { String(cString: $0) } ?? "invalid JSON"
            if let raw { yajl_free_error(handle, raw) }
            let parseError = message.hasPrefix("parse error: ")
            message = message.replacingPrefix("parse error: ", with: "").trimmingTrailingWhitespace()
            let afterKeyAndValue = parseError && message.hasPrefix("after key and value")
            // At the end yajl has seen nothing but the input stopping (complete_parse feeds it one
            // space): a premature EOF, or a lexical error (a number cut after "-" or "1."), is the
            // input ending too soon. A parse error there is about a token the end completed (a
            // number yajl could only finish then: `[1] 2`, `[1 2`): no more input would mend it.
            let endsTooSoon = atEnd && (!parseError || message.contains("premature EOF"))
            let detail = message.isEmpty || message.contains("premature EOF") ? "" : " (\(message))"
            error = JSONError(endsTooSoon ? .unexpectedEnd : .syntax, endsTooSoon ? "unexpected end of input" + detail : message)
            error.offset = consumedBefore + consumed
            // yajl points "after key and value" at the offending token's end less its length,
            // clamped to the start of the feed (its other parse errors at the token's end, exact):
            // for a token begun in an earlier feed, find where it is.
            // (With an event in this feed, the value before the offending token completed here, so
            // the token began here too and yajl's figure is exact.)
            if afterKeyAndValue, !atEnd, consumed == 0, carry.count > 0, !feedProducedEvents,
               let offset = spanningTokenOffset(chunk: chunk, carry: carry) {
                error.offset = offset
            }
            error.path = builder.pointee.currentPath()
            // yajl's error is about a token already over the size cap (inside it, or at its end):
            // the cap comes first, as it does when the token is fed in chunks (the Tokenizer fails
            // it as soon as it passes the cap, wherever it stands).
            // (yajl points "after key and value" into the token, the others at or past its cap.)
            if !atEnd, let offset = error.offset, afterKeyAndValue || offset > maxTokenLength,
               let overlong = overlongToken(at: afterKeyAndValue ? .holding(offset) : parseError ? .endingAt(consumedBefore + consumed) : .containing(offset),
                                            chunk: chunk, carry: carry) {
                return tokenTooLong(overlong.kind, at: overlong.start, pending: overlong.pending, chunk: chunk)
            }
        }
        if tracksLines, let offset = error.offset { locate(&error, offset: offset, chunk: chunk) }
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
    private func overlongToken(at position: TokenAt, chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer)
        -> (start: Int, kind: TokenScanner.Kind, pending: EventBuilder.PendingToken)? {
        let base = consumedBefore - carry.count
        return TokenScanner.withJoined(carry, chunk) { bytes -> (start: Int, kind: TokenScanner.Kind, pending: EventBuilder.PendingToken)? in
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
    private func pendingToken(after previous: TokenScanner.Token?, in bytes: UnsafeRawBufferPointer) -> EventBuilder.PendingToken {
        let afterColon = previous.map { $0.kind == .punctuation && bytes[$0.start] == UInt8(ascii: ":") } ?? false
        return builder.pointee.pendingToken(afterColon: afterColon)
    }

    /// Where yajl would point a parse error at the token begun in `carry` and ended in `chunk`
    /// if it had seen them as one buffer.
    private func spanningTokenOffset(chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer) -> Int? {
        TokenScanner.withJoined(carry, chunk) { bytes in
            let scanner = TokenScanner(bytes: bytes, allowComments: allowComments)
            // A number ending right at the feed's start was completed by this feed's first byte.
            guard let token = scanner.firstToken(endingAfter: carry.count),
                  token.start < carry.count else { return nil }
            return consumedBefore - carry.count + token.end - token.yajlLength
        }
    }

    /// With memchr: the byte loop this replaces was 7-9 % of a streamed array's decode time (perf).
    private mutating func countLines(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress else { return }
        let end = base + chunk.count
        var next = base
        var last: UnsafeRawPointer?
        while next < end, let found = memchr(next, 10, end - next) {
            lineCount += 1
            last = UnsafeRawPointer(found)
            next = last! + 1
        }
        if let last { lastLineStart = consumedBefore + (last - base) + 1 }
    }

    private func locate(_ error: inout JSONError, offset: Int, chunk: UnsafeRawBufferPointer) {
        var line = lineCount, lineStart = lastLineStart
        let upTo = min(max(offset - consumedBefore, 0), chunk.count)
        for i in 0..<upTo where chunk[i] == 10 { line += 1; lineStart = consumedBefore + i + 1 }
        error.line = line + 1
        error.column = offset - lineStart + 1
    }

    private func locate(_ error: inout JSONError, offset: Int, in input: UnsafeRawBufferPointer) {
        var line = 0, lineStart = 0
        for i in 0..<min(offset, input.count) where input[i] == 10 { line += 1; lineStart = i + 1 }
        error.line = line + 1
        error.column = offset - lineStart + 1
    }

    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
            yajl_null: { ctx in flag(eventBuilder(ctx).pointee.null()) },
            yajl_boolean: { ctx, value in flag(eventBuilder(ctx).pointee.bool(value != 0)) },
            yajl_integer: nil,
            yajl_double: nil,
            yajl_number: { ctx, text, count in
                flag(eventBuilder(ctx).pointee.numberToken(UnsafeRawBufferPointer(start: text, count: count)))
            },
            yajl_string: { ctx, text, count in
                flag(eventBuilder(ctx).pointee.stringToken(UnsafeRawBufferPointer(start: text, count: count)))
            },
            yajl_start_map: { ctx in flag(eventBuilder(ctx).pointee.startObject()) },
            yajl_map_key: { ctx, text, count in
                flag(eventBuilder(ctx).pointee.keyToken(UnsafeRawBufferPointer(start: text, count: count)))
            },
            yajl_end_map: { ctx in flag(eventBuilder(ctx).pointee.endObject()) },
            yajl_start_array: { ctx in flag(eventBuilder(ctx).pointee.startArray()) },
            yajl_end_array: { ctx in flag(eventBuilder(ctx).pointee.endArray()) }
        ))
        return table
    }()
}

@inline(__always)
private func eventBuilder(_ ctx: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<EventBuilder> {
    ctx.unsafelyUnwrapped.assumingMemoryBound(to: EventBuilder.self)
}

@inline(__always)
private func flag(_ ok: Bool) -> Int32 { ok ? 1 : 0 }

/// yajl with callbacks that do nothing: the ceiling of this design, for the benchmarks.
@_spi(Benchmarks)
public enum YajlBaseline {
    /// Tokenizes `bytes` with no-op callbacks.
    /// - Parameter bytes: The JSON text.
    /// - Returns: The number of events yajl produced.
    /// - Throws: `JSONError` with code `.syntax` if the input is not JSON.
    @discardableResult
    public static func scan(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var count = 0
        let handle = yajl_alloc(noop, nil, &count)
        defer { yajl_free(handle) }
        if let base = bytes.baseAddress, yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count) != yajl_status_ok {
            throw JSONError(.syntax, "invalid JSON")
        }
        if yajl_complete_parse(handle) != yajl_status_ok { throw JSONError(.syntax, "invalid JSON") }
        return count
    }

    nonisolated(unsafe) private static let noop: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
            yajl_null: { count($0) }, yajl_boolean: { c, _ in count(c) }, yajl_integer: nil, yajl_double: nil,
            yajl_number: { c, _, _ in count(c) }, yajl_string: { c, _, _ in count(c) },
            yajl_start_map: { count($0) }, yajl_map_key: { c, _, _ in count(c) }, yajl_end_map: { count($0) },
            yajl_start_array: { count($0) }, yajl_end_array: { count($0) }))
        return table
    }()
}

@inline(__always)
private func count(_ ctx: UnsafeMutableRawPointer?) -> Int32 {
    ctx.unsafelyUnwrapped.assumingMemoryBound(to: Int.self).pointee &+= 1
    return 1
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with new: String) -> String {
        hasPrefix(prefix) ? new + dropFirst(prefix.count) : self
    }

    fileprivate func trimmingTrailingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension Tokenizer {
    /// Whether the input so far holds no token, only whitespace (and comments, when allowed): for
    /// a stream of values, zero values rather than an input that ended too soon. Feeds the bytes
    /// held back first, so a byte that is not whitespace (a form feed without comments allowed)
    /// fails here as it would in `finish`.
    ///
    /// Meaningful only while the builder has seen no event: until then the Tokenizer holds every
    /// byte fed from the first token on (`feed` keeps a feed with no event whole).
    mutating func holdsNoToken() throws(JSONError) -> Bool {
        if heldFed < heldCount, try feedHeld() { return false }
        var none = true
        TokenScanner(bytes: UnsafeRawBufferPointer(start: held, count: heldCount), allowComments: allowComments)
            .forEachToken { _ in none = false; return false }
        return none
    }
}
