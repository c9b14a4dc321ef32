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
    /// Bytes held back while a token spans feeds (see `feed`).
    private var pending: [UInt8] = []
    private var stallSize = 0
    /// How many times yajl was fed (tests check that a long token costs O(log n) feeds).
    private(set) var feedCount = 0

    /// - Parameter multipleValues: Accept a sequence of top-level values (concatenated records).
    init(builder: UnsafeMutablePointer<EventBuilder>, allowComments: Bool, multipleValues: Bool = false, tracksLines: Bool) {
        self.builder = builder
        self.tracksLines = tracksLines
        handle = yajl_alloc(Tokenizer.callbacks, nil, UnsafeMutableRawPointer(builder))
        if allowComments { _ = magma_yajl_config(handle, yajl_allow_comments, 1) }
        if multipleValues { _ = magma_yajl_config(handle, yajl_allow_multiple_values, 1) }
    }

    deinit {
        if builder.pointee.position.handle == handle { builder.pointee.position = (nil, 0) }
        yajl_free(handle)
    }

    /// Bytes the handle has consumed in the feed under way (valid inside callbacks).
    static func bytesConsumed(_ handle: OpaquePointer) -> Int { yajl_get_bytes_consumed(handle) }

    /// Parses the whole input in one call and completes it.
    /// - Throws: `JSONError` with offset, line and column computed from `input`.
    mutating func parseAll(_ input: UnsafeRawBufferPointer) throws(JSONError) {
        do {
            try feedDirect(input)
            try finish()
        } catch var error {
            if let offset = error.offset { locate(&error, offset: offset, in: input) }
            throw error
        }
    }

    /// Feeds one chunk. Any chunking gives the same events as one whole buffer.
    ///
    /// yajl re-lexes a token that spans feeds from its start on every feed, so a 64 MiB string fed
    /// in 64 KiB chunks would cost quadratic time. When a feed produces no event, later chunks are
    /// held back until they add up to twice that feed, which keeps the total work linear.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(JSONError) {
        if stallSize > 0 {
            pending.append(contentsOf: chunk)
            if pending.count < 2 * stallSize { return }
            try feedPending()
            return
        }
        let events = builder.pointee.eventCount
        try feedDirect(chunk)
        if builder.pointee.eventCount == events, chunk.count > 0 { stallSize = chunk.count }
    }

    private mutating func feedPending() throws(JSONError) {
        let events = builder.pointee.eventCount
        let size = pending.count
        do {
            try pending.withUnsafeBytes { try feedDirect($0) }
        } catch {
            throw error as! JSONError
        }
        pending.removeAll(keepingCapacity: true)
        stallSize = builder.pointee.eventCount == events ? size : 0
    }

    /// Ends the input: flushes held-back bytes and reports a value left incomplete.
    mutating func finish() throws(JSONError) {
        if !pending.isEmpty { try feedPending() }
        let status = yajl_complete_parse(handle)
        if status != yajl_status_ok {
            throw error(status, chunk: UnsafeRawBufferPointer(start: nil, count: 0), atEnd: true)
        }
    }

    private mutating func feedDirect(_ chunk: UnsafeRawBufferPointer) throws(JSONError) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        feedCount += 1
        builder.pointee.position = (handle, consumedBefore)
        let status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), chunk.count)
        if status != yajl_status_ok { throw error(status, chunk: chunk, atEnd: false) }
        if tracksLines { countLines(chunk) }
        consumedBefore += chunk.count
    }

    private func error(_ status: yajl_status, chunk: UnsafeRawBufferPointer, atEnd: Bool) -> JSONError {
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
            message = message.replacingPrefix("parse error: ", with: "").trimmingTrailingWhitespace()
            let incomplete = atEnd && (message.contains("premature EOF") || message.isEmpty)
            error = JSONError(incomplete ? .unexpectedEnd : .syntax, incomplete ? "unexpected end of input" : message)
            error.offset = consumedBefore + consumed
            error.path = builder.pointee.currentPath()
        }
        if tracksLines, let offset = error.offset { locate(&error, offset: offset, chunk: chunk) }
        return error
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
                flag(eventBuilder(ctx).pointee.number(UnsafeRawBufferPointer(start: text, count: count)))
            },
            yajl_string: { ctx, text, count in
                flag(eventBuilder(ctx).pointee.string(UnsafeRawBufferPointer(start: text, count: count)))
            },
            yajl_start_map: { ctx in flag(eventBuilder(ctx).pointee.startObject()) },
            yajl_map_key: { ctx, text, count in
                flag(eventBuilder(ctx).pointee.key(UnsafeRawBufferPointer(start: text, count: count)))
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
