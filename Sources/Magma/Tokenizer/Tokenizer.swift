// The bridge to yajl. Only this file and its companions (Tokenizer+SkipInPlace,
// Tokenizer+OverlongTokens, YajlBaseline, SkipScanner) import CYajl, privately: no C type leaves them.
//
// yajl keeps a pointer to the callback table, so the table is allocated once, for the life of
// the process, and never moves (`TokenCallbacks`). Callbacks capture nothing: each recovers the
// sink (the EventBuilder) from the context pointer (a raw pointer to the sink's storage, so there
// is no retain/release per event) and forwards to one method. A method that fails has already
// stored its error in the sink and returns false, which stops yajl (`yajl_status_client_canceled`).
// The Tokenizer names its sink only through `TokenSink`, the one interface up out of this layer.
private import CYajl
#if canImport(Glibc)
import Glibc
#endif

/// One yajl handle fed chunk by chunk to a `Sink`. Not copyable: it owns the handle.
///
/// Beyond yajl, it closes yajl's gaps that need the bytes themselves: form feed and vertical tab
/// are not JSON whitespace (yajl skips them), a string or number may not pass the size cap, and a
/// syntax error in a token that spans feeds is reported where it is in one whole buffer (yajl
/// clamps it to the start of the feed). For those it holds the bytes from the start of the token
/// still open at the end of a feed (see `held`).
struct Tokenizer<Sink: TokenSink>: ~Copyable {
    let handle: OpaquePointer
    /// The sink yajl's callbacks feed (the EventBuilder); its storage must not move.
    let builder: UnsafeMutablePointer<Sink>
    /// Bytes handed to yajl before the current feed: turns yajl's per-feed offsets into absolute ones.
    var consumedBefore = 0
    /// The lines of the bytes before `consumedBefore`, when line and column are tracked as the
    /// input is fed (whole-buffer decoding computes them from the buffer on error instead).
    var lines: LineCounter?
    let allowComments: Bool
    let maxTokenLength: Int
    /// Bytes kept from earlier feeds (see `HeldBytes`); the fed ones end at `consumedBefore`.
    var held = HeldBytes()
    var stallSize = 0
    /// `held.count` at which the held bytes are next checked against the size cap.
    var nextSizeCheck: Int
    /// How many times yajl was fed (tests check that a long token costs O(log n) feeds).
    private(set) var feedCount = 0
    /// The most bytes held at once (tests check a long token is held in O(cap)).
    var mostHeld: Int { held.mostCount }
    /// A string or number over the cap being read past, in a stream that skips bad records (see
    /// `skipOverlongToken`): its bytes are neither held nor fed to yajl.
    var overlong: OverlongToken?
    /// The offset of the input's first byte that is not JSON whitespace, once fed (a byte order
    /// mark there is named in its error).
    private(set) var firstNonBlankOffset: Int?
    /// Where yajl's blocks come from and go back to (nil: the system's malloc); held until the handle is freed.
    private let memory: YajlMemory?

    /// Reads `allowComments` and `maxTokenLength` from the builder's options.
    /// - Parameters:
    ///   - multipleValues: Accept a sequence of top-level values (concatenated records).
    ///   - memory: Blocks shared with the handles before and after this one (NDJSON's per line).
    init(builder: UnsafeMutablePointer<Sink>, multipleValues: Bool = false, tracksLines: Bool, memory: YajlMemory? = nil) {
        self.builder = builder
        self.memory = memory
        lines = tracksLines ? LineCounter() : nil
        allowComments = builder.pointee.options.allowComments
        maxTokenLength = builder.pointee.options.maxTokenLength
        nextSizeCheck = maxTokenLength &+ 1
        if let memory {
            var funcs = yajl_alloc_funcs(
                malloc: { ctx, size in yajlMemory(ctx).allocate(size) },
                realloc: { ctx, pointer, size in yajlMemory(ctx).reallocate(pointer, size) },
                free: { ctx, pointer in yajlMemory(ctx).release(pointer) },
                ctx: Unmanaged.passUnretained(memory).toOpaque())
            // yajl copies the table into the handle.
            handle = yajl_alloc(Sink.tokenCallbacks.yajlTable, &funcs, UnsafeMutableRawPointer(builder))
        } else {
            handle = yajl_alloc(Sink.tokenCallbacks.yajlTable, nil, UnsafeMutableRawPointer(builder))
        }
        if allowComments { _ = magma_yajl_config(handle, yajl_allow_comments, 1) }
        if multipleValues { _ = magma_yajl_config(handle, yajl_allow_multiple_values, 1) }
        // EventBuilder+Text checks every string strictly; yajl's structural check is redundant.
        _ = magma_yajl_config(handle, yajl_dont_validate_strings, 1)
    }

    deinit {
        if builder.pointee.position.handle == handle { builder.pointee.position = FeedPosition() }
        yajl_free(handle)
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
            if let offset = error.offset { LineCounter().locate(&error, offset: offset, chunk: input, at: 0) }
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
    ///
    /// In a stream that skips bad records, a token over the cap is read past instead, and its
    /// record skipped once it ends, as one whole buffer skips it (see `skipOverlongToken`).
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(JSONError) {
        var chunk = chunk
        if overlong != nil {
            guard let end = try skipOverlongToken(chunk) else { return }
            chunk = UnsafeRawBufferPointer(rebasing: chunk[end...])
        }
        guard chunk.count > 0 else { return }
        if stallSize > 0 {
            held.append(chunk)
            if held.count >= nextSizeCheck { try checkOpenTokenSize() }
            if overlong != nil { return }
            if held.count - held.fedCount < 2 * stallSize { return }
            try feedHeld()
            return
        }
        if try !feedDirect(chunk, carry: held.bytes) {
            stallSize = chunk.count
            held.append(chunk)
            held.markAllFed()
            if held.count >= nextSizeCheck { try checkOpenTokenSize() }
        } else {
            keepOpenToken(fed: chunk)
        }
    }

    /// Ends the input: flushes held-back bytes and reports a value left incomplete.
    mutating func finish() throws(JSONError) {
        var cutNumber: OverlongToken?
        if let token = overlong {
            // The end completes a number, as it does in one whole buffer; nothing else.
            guard token.kind == .number, token.isCompleteNumber else { throw overlongError(token) }
            try endOverlongToken()
            cutNumber = token
        }
        do {
            try finish(whole: nil)
        } catch where error.code == .unexpectedEnd && cutNumber != nil {
            // One whole buffer finds the number still open at the end: the cap comes first.
            throw overlongError(cutNumber!)
        }
    }


    /// `whole` is the whole input when it was parsed in one buffer.
    mutating func finish(whole: UnsafeRawBufferPointer?) throws(JSONError) {
        if held.fedCount < held.count { try feedHeld() }
        builder.pointee.position = FeedPosition(handle: handle, consumedBefore: consumedBefore, carry: held.fedBytes, lines: lines)
        let status = yajl_complete_parse(handle)
        if status != yajl_status_ok {
            var error = error(status, chunk: UnsafeRawBufferPointer(start: nil, count: 0),
                              carry: UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
            // Input that ends inside a string or number already over the cap: the cap comes first,
            // as it does when the input is fed in chunks. (So it does for a parse error here: it is
            // about the number the end completed.)
            if error.code == .unexpectedEnd || error.code == .syntax, consumedBefore > maxTokenLength {
                let bytes = whole ?? held.fedBytes
                let base = consumedBefore - bytes.count
                if let (open, previous) = TokenScanner(bytes: bytes, allowComments: allowComments).openToken(longerThan: maxTokenLength) {
                    error = tokenTooLong(open.kind, at: base + open.start, pending: pendingToken(after: previous, in: bytes))
                    throw error
                }
            }
            if error.code == .unexpectedEnd { placeCutString(&error, whole: whole) }
            if error.code == .syntax, let offset = error.offset {
                // A token the end completed: yajl points past it.
                let bytes = whole ?? held.fedBytes
                if let start = Tokenizer.tokenStart(.endingAt(offset), in: bytes, from: consumedBefore - bytes.count,
                                                    allowComments: allowComments) {
                    error.offset = start
                    error.line = nil
                    error.column = nil
                    lines?.locate(&error, offset: start, at: consumedBefore)
                }
            }
            throw error
        }
        try checkNothingLeftOpen(whole: whole)
    }

    /// Feeds `chunk` to yajl; `carry` is the held bytes before it (see `FeedPosition`).
    /// - Returns: Whether the feed produced events.
    @discardableResult
    mutating func feedDirect(_ chunk: UnsafeRawBufferPointer, carry: UnsafeRawBufferPointer) throws(JSONError) -> Bool {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return false }
        feedCount += 1
        if firstNonBlankOffset == nil, let i = chunk.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            firstNonBlankOffset = consumedBefore + i
        }
        builder.pointee.position = FeedPosition(handle: handle, consumedBefore: consumedBefore, inputStart: base,
                                                inputEnd: base + chunk.count, carry: carry, lines: lines)
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
        var status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), length)
        // A key callback read unmapped values past yajl (`skipValuesInPlace`): yajl goes on after them.
        while status == yajl_status_client_canceled, let resume = builder.pointee.resumeAt {
            builder.pointee.resumeAt = nil
            guard magma_yajl_resume_after_value(handle) != 0 else { break }
            let offset = resume - UnsafeRawPointer(base)
            builder.pointee.position.resumedAt = offset
            status = offset < length ? yajl_parse(handle, (base + offset).assumingMemoryBound(to: UInt8.self), length - offset)
                                     : yajl_status_ok
        }
        let producedEvents = builder.pointee.eventCount != eventsBefore
        if status != yajl_status_ok {
            throw error(status, chunk: chunk, carry: carry, atEnd: false, feedProducedEvents: producedEvents)
        }
        if stray >= 0 {
            var error = JSONError(.syntax, chunk[stray] == 0x0C ? "form feed (0x0C) is not JSON whitespace"
                                                                : "vertical tab (0x0B) is not JSON whitespace")
            error.offset = consumedBefore + stray
            error.path = builder.pointee.currentPath()
            lines?.locate(&error, offset: consumedBefore + stray, chunk: chunk, at: consumedBefore)
            throw error
        }
        lines?.count(chunk, at: consumedBefore)
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
        let consumed = atEnd ? 0 : builder.pointee.position.resumedAt + yajl_get_bytes_consumed(handle)
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
            if parseError { message.removeFirst("parse error: ".count) }
            while message.last?.isWhitespace == true { message.removeLast() }
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
            if !atEnd, let offset = error.offset {
                pointAtOffendingStart(&error, yajlOffset: offset, parseError: parseError, chunk: chunk, carry: carry)
            }
        }
        // A Decodable record placed its error itself (its value may be in a chunk already counted).
        if error.line == nil, let offset = error.offset { lines?.locate(&error, offset: offset, chunk: chunk, at: consumedBefore) }
        return error
    }
}

/// yajl's callbacks for one kind of `TokenSink`, in a table allocated once, for the life of the
/// process, that never moves (yajl keeps a pointer to it). C function pointers cannot be generic,
/// so the sink's layer writes them: each recovers the sink from the context pointer and forwards
/// to one method; a key and a container's start go through `Tokenizer.mapKey` and
/// `Tokenizer.startContainer`, which skip unmapped values past yajl. Each returns 0 to stop yajl.
final class TokenCallbacks: @unchecked Sendable {
    typealias Event = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias Text = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32
    /// The `yajl_callbacks` (kept untyped: no C type leaves the files that import CYajl).
    private let table: UnsafeMutableRawPointer

    init(null: Event, boolean: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32,
         number: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int32, string: Text,
         startMap: Event, mapKey: Text, endMap: Event, startArray: Event, endArray: Event) {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
            yajl_null: null, yajl_boolean: boolean, yajl_integer: nil, yajl_double: nil, yajl_number: number,
            yajl_string: string, yajl_start_map: startMap, yajl_map_key: mapKey, yajl_end_map: endMap,
            yajl_start_array: startArray, yajl_end_array: endArray))
        self.table = UnsafeMutableRawPointer(table)
    }

    fileprivate var yajlTable: UnsafePointer<yajl_callbacks> { UnsafePointer(table.assumingMemoryBound(to: yajl_callbacks.self)) }
}

/// The `YajlMemory` a handle allocates from (the Tokenizer that owns the handle holds it).
@inline(__always)
private func yajlMemory(_ ctx: UnsafeMutableRawPointer?) -> YajlMemory {
    Unmanaged<YajlMemory>.fromOpaque(ctx.unsafelyUnwrapped).takeUnretainedValue()
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
        if overlong != nil { return false }
        if held.fedCount < held.count, try feedHeld() { return false }
        var none = true
        TokenScanner(bytes: held.bytes, allowComments: allowComments).forEachToken { _ in none = false; return false }
        return none
    }
}
