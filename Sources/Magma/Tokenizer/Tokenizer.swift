// The bridge to yajl, through its public API only: `yajl_alloc`, `yajl_config` (wrapped in
// shim.h: it is variadic), `yajl_parse`, `yajl_complete_parse`, `yajl_get_bytes_consumed`,
// `yajl_get_error`, `yajl_free`. Nothing here knows yajl's private structures.
//
// yajl keeps a pointer to the callback table, so the table is allocated once, for the life of
// the process, and never moves (`TokenCallbacks`). Callbacks capture nothing: each recovers the
// sink (the EventBuilder) from the context pointer (a raw pointer to the sink's storage, so there
// is no retain/release per event), notes where yajl stands (`note`), and forwards to one method.
// A method that fails has stored its error in the sink and returns false, which stops yajl
// (`yajl_status_client_canceled`).
//
// yajl's gaps are closed through its callbacks and return values: where it stops on an error,
// the Swift grammar (JSONScanner) goes on from the last token yajl handed over and says what is
// wrong and where, so both readers report the same errors (Tokenizer+Errors.swift). yajl skips
// form feed and vertical tab as whitespace (JSON does not); it re-lexes a token that spans feeds
// from its start on every feed (held back here, so the work stays linear); it has no size cap
// (the held token is checked as it grows).
private import CYajl

/// One yajl handle fed chunk by chunk to a `Sink`. Not copyable: it owns the handle.
struct Tokenizer<Sink: TokenSink>: ~Copyable {
    let handle: OpaquePointer
    /// The sink yajl's callbacks feed (the EventBuilder); its storage must not move.
    let builder: UnsafeMutablePointer<Sink>
    /// Bytes handed to yajl, or skipped as blanks, before the next feed: turns yajl's per-feed
    /// offsets into absolute ones.
    var consumedBefore = 0
    /// The lines of the bytes before `consumedBefore`, when line and column are tracked as the
    /// input is fed (whole-buffer decoding computes them from the buffer on error instead).
    var lines: LineCounter?
    let allowComments: Bool
    let maxTokenLength: Int
    /// Bytes kept from earlier feeds, from the last token boundary on (blanks after it dropped):
    /// a token open across feeds, and bytes held back, not fed yet. They end at `consumedBefore`
    /// plus the held-back count.
    var held = HeldBytes()
    /// The size of a feed that produced no event: later chunks are held back until they add up
    /// to twice as much (0: none).
    var stallSize = 0
    /// `held.count` at which the held bytes are next checked against the size cap.
    var nextSizeCheck: Int
    /// How many times yajl was fed (tests check that a long token costs O(log n) feeds).
    private(set) var feedCount = 0
    /// The most bytes held at once (tests check a long token is held in O(cap)).
    var mostHeld: Int { held.mostCount }
    /// Where yajl's blocks come from and go back to (nil: the system's malloc); held until the handle is freed.
    private let memory: YajlMemory?

    /// Reads `allowComments` and `maxTokenLength` from the builder's options.
    /// - Parameters:
    ///   - tracksLines: Whether lines are counted as bytes are fed (streams), for errors' line and column.
    ///   - memory: Blocks shared with the handles before and after this one (NDJSON's per line).
    init(builder: UnsafeMutablePointer<Sink>, tracksLines: Bool, memory: YajlMemory? = nil) {
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
        // The grammar checks every string strictly (EventBuilder+Text); yajl's check is structural only.
        _ = magma_yajl_config(handle, yajl_dont_validate_strings, 1)
        var position = FeedPosition()
        position.handle = handle
        position.containers = ContainerBits()
        builder.pointee.position = position
    }

    deinit {
        if builder.pointee.position.handle == handle {
            builder.pointee.position.containers?.release()
            builder.pointee.position = FeedPosition()
        }
        yajl_free(handle)
    }

    /// Parses the whole input in one call and completes it.
    /// - Throws: `JSONError` with offset, line and column computed from `input`.
    mutating func parseAll(_ input: UnsafeRawBufferPointer) throws(JSONError) {
        let start = consumedBefore
        do {
            try feed(input)
            try finish()
        } catch var error {
            if let offset = error.offset, error.line == nil { LineCounter().locate(&error, offset: offset, chunk: input, at: start) }
            throw error
        }
    }

    /// Feeds one chunk. Any chunking gives the same events, and the same errors, as one whole buffer.
    ///
    /// yajl re-lexes a token that spans feeds from its start on every feed, so a 64 MiB string
    /// fed in 64 KiB chunks would cost quadratic time. When a feed produces no event, later chunks
    /// are held back until they add up to twice that feed, which keeps the total work linear; and
    /// the token under way is checked against the size cap as the held bytes grow, so an endless
    /// string fails at the cap, not at the end of the input.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(JSONError) {
        guard chunk.count > 0 else { return }
        if stallSize > 0 {
            held.append(chunk)
            if held.count >= nextSizeCheck { try checkHeldSize() }
            if held.heldBackCount >= 2 * stallSize { try feedHeld() }
            return
        }
        var chunk = chunk
        if held.count == 0 {
            // Between tokens, blanks are passed over here, at scan speed: yajl never sees them.
            let blanks = JSONScanner.blank(chunk.baseAddress!, chunk.baseAddress! + chunk.count) - chunk.baseAddress!
            if blanks > 0 {
                lines?.count(UnsafeRawBufferPointer(rebasing: chunk[..<blanks]), at: consumedBefore)
                consumedBefore += blanks
                chunk = UnsafeRawBufferPointer(rebasing: chunk[blanks...])
                guard chunk.count > 0 else { return }
            }
        }
        let start = consumedBefore
        if try feedDirect(chunk) {
            keepTail(from: chunk, at: start)
        } else {
            stallSize = chunk.count
            held.append(chunk)
            held.markAllFed()
            if held.count >= nextSizeCheck { try checkHeldSize() }
        }
    }

    /// Ends the input: feeds the bytes held back and completes the parse.
    mutating func finish() throws(JSONError) {
        if held.heldBackCount > 0 { try feedHeld() }
        setPosition(UnsafeRawBufferPointer(start: nil, count: 0))
        if yajl_complete_parse(handle) != yajl_status_ok { throw failure(atEnd: true) }
        // yajl ends a parse whose value is complete as complete, a token it holds after it
        // (`1 "abc`) unread: the grammar reads what follows the value.
        let position = builder.pointee.position
        let from = max(position.boundary, consumedBefore - held.fedCount)
        if from < consumedBefore, var error = grammarError(from: from, to: consumedBefore, atEnd: true) {
            if let offset = error.offset { position.locate(&error, offset: offset) }
            throw error
        }
    }

    /// Feeds `chunk` (straight from the caller, or the held-back bytes) to yajl.
    /// - Returns: Whether the feed produced events.
    @discardableResult
    mutating func feedDirect(_ chunk: UnsafeRawBufferPointer) throws(JSONError) -> Bool {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return false }
        feedCount += 1
        setPosition(chunk)
        // yajl skips form feed and vertical tab as whitespace: feed it up to the first one, and
        // if it took it, the grammar names it (it is not JSON whitespace; with comments, JSON5's).
        var length = chunk.count
        let stray = allowComments ? nil : Tokenizer.firstFormFeedOrVerticalTab(chunk)
        if let stray { length = stray + 1 }
        let eventsBefore = builder.pointee.eventCount
        let status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), length)
        if status != yajl_status_ok || stray != nil { throw failure(atEnd: false) }
        consumedBefore += chunk.count
        return builder.pointee.eventCount != eventsBefore
    }

    /// Tells the callbacks where the bytes about to be parsed lie.
    private mutating func setPosition(_ chunk: UnsafeRawBufferPointer) {
        let fedHeld = held.fedBytes
        builder.pointee.position.consumedBefore = consumedBefore
        builder.pointee.position.inputStart = chunk.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        builder.pointee.position.inputEnd = builder.pointee.position.inputStart + chunk.count
        builder.pointee.position.carry = fedHeld
        builder.pointee.position.lines = lines
    }

    /// Bytes whose feed to yajl costs no lex of `,`/`:` twice: blocks, so the second search reads
    /// bytes the first has just brought into cache.
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

    // MARK: Held bytes

    /// After a feed of `chunk` (at offset `start`) that produced events: keeps its bytes after the
    /// last token yajl handed over, blanks first dropped (a token yajl holds open, a `,` or `:`);
    /// the lines of the bytes let go are counted.
    private mutating func keepTail(from chunk: UnsafeRawBufferPointer, at start: Int) {
        stallSize = 0
        let boundary = min(max(builder.pointee.position.boundary - start, 0), chunk.count)
        let tail = UnsafeRawBufferPointer(rebasing: chunk[boundary...])
        let skipped = passPunctuation(tail, at: start + boundary)
        lines?.count(held.fedBytes, at: start - held.fedCount)
        lines?.count(UnsafeRawBufferPointer(rebasing: chunk[..<(boundary + skipped)]), at: start)
        held.removeAll()
        guard skipped < tail.count else { return }
        held.append(UnsafeRawBufferPointer(rebasing: tail[skipped...]))
        held.markAllFed()
        if held.count < maxTokenLength { nextSizeCheck = maxTokenLength &+ 1 }
    }

    /// The bytes of a feed's tail (at `offset`) that yajl has read after its last token and that
    /// hold no token: blanks, and a `,` or `:` (which have no event), the grammar's place moved
    /// past them; the bytes held then begin at a token, and blanks never pile up between two.
    private mutating func passPunctuation(_ tail: UnsafeRawBufferPointer, at offset: Int) -> Int {
        var i = 0
        while i < tail.count {
            let position = builder.pointee.position
            switch tail[i] {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
                continue
            case UInt8(ascii: ",") where position.next == .afterValue && (position.containers?.depth ?? 0) > 0:
                let containers = position.containers!
                builder.pointee.position.next = containers.isObject(containers.depth - 1) ? .key : .value
            case UInt8(ascii: ":") where position.next == .colon:
                builder.pointee.position.next = .value
            default:
                return i
            }
            i += 1
            builder.pointee.position.boundary = offset + i
        }
        return i
    }

    /// Feeds the held-back bytes.
    private mutating func feedHeld() throws(JSONError) {
        let fed = held.fedCount, back = held.heldBackCount
        let start = consumedBefore
        let producedEvents = try feedDirect(held.heldBackBytes)
        held.markAllFed()
        if producedEvents {
            // The tail after the new boundary, from the held bytes themselves.
            let all = held.bytes
            let keep = max(builder.pointee.position.boundary - (start - fed), 0)
            var rest = Array(all[min(keep, all.count)...])
            let skipped = rest.withUnsafeBytes { passPunctuation($0, at: start - fed + min(keep, all.count)) }
            lines?.count(UnsafeRawBufferPointer(rebasing: all[..<(min(keep, all.count) + skipped)]), at: start - fed)
            rest.removeFirst(skipped)
            held.removeAll()
            rest.withUnsafeBytes { held.append($0) }
            held.markAllFed()
            stallSize = 0
            if held.count < maxTokenLength { nextSizeCheck = maxTokenLength &+ 1 }
        } else {
            stallSize = back
        }
    }

    /// The token under way in the held bytes must not pass the size cap: the grammar reads them
    /// on from the last boundary. Runs when the held bytes pass the cap and then each time they
    /// grow by a quarter: O(n) in all.
    private mutating func checkHeldSize() throws(JSONError) {
        nextSizeCheck = max(held.count + held.count / 4 + 1, maxTokenLength &+ 1)
        let heldStart = consumedBefore - held.fedCount
        guard var error = heldError(from: heldStart) else { return }
        // The tokens before the error, held back, reach the sink first (one of them may fail;
        // yajl is fed the offending byte too, which ends a number before it); the grammar then
        // reads on from the last of them, so the error's path and property are where those
        // tokens leave the sink, as in one whole buffer.
        if let offset = error.offset, offset >= consumedBefore, held.heldBackCount > 0 {
            let upTo = min(offset - consumedBefore + 1, held.heldBackCount)
            let copy = Array(held.heldBackBytes[..<upTo])
            do {
                _ = try copy.withUnsafeBytes { prefix in try feedDirect(prefix) }
            } catch {
                throw error as! JSONError
            }
            error = heldError(from: heldStart) ?? error
        }
        // The held bytes, fed or not, are not counted yet: they begin at `heldStart`.
        if let offset = error.offset { lines?.locate(&error, offset: offset, chunk: held.bytes, at: heldStart) }
        throw error
    }
}

/// yajl's callbacks for one kind of `TokenSink`, in a table allocated once, for the life of the
/// process, that never moves (yajl keeps a pointer to it). C function pointers cannot be generic,
/// so the sink's layer writes them: each recovers the sink from the context pointer, notes the
/// token (`Tokenizer.note`) and forwards to one method. Each returns 0 to stop yajl.
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

/// What a callback reports to `Tokenizer.note`.
enum TokenEvent {
    case value, key, open(object: Bool), close
}

extension Tokenizer {
    /// Moves the sink's position past the token whose callback runs: called first by each callback.
    @inline(__always)
    static func note(_ builder: UnsafeMutablePointer<Sink>, _ event: TokenEvent) {
        let handle = builder.pointee.position.handle.unsafelyUnwrapped
        builder.pointee.position.lastBoundary = builder.pointee.position.boundary
        builder.pointee.position.boundary = builder.pointee.position.consumedBefore + yajl_get_bytes_consumed(handle)
        builder.pointee.position.atRoot = false
        switch event {
        case .value:
            builder.pointee.position.next = .afterValue
        case .key:
            builder.pointee.position.next = .colon
        case .open(let object):
            builder.pointee.position.containers!.push(object: object)
            builder.pointee.position.next = .first
        case .close:
            builder.pointee.position.containers!.pop()
            builder.pointee.position.next = .afterValue
        }
    }
}

/// The `YajlMemory` a handle allocates from (the Tokenizer that owns the handle holds it).
@inline(__always)
private func yajlMemory(_ ctx: UnsafeMutableRawPointer?) -> YajlMemory {
    Unmanaged<YajlMemory>.fromOpaque(ctx.unsafelyUnwrapped).takeUnretainedValue()
}

#if canImport(Glibc)
import Glibc
#endif
