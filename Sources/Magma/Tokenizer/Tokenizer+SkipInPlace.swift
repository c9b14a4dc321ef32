// Skipping unmapped values past yajl: SkipScanner finds where they end, and yajl goes on from
// there (yajl 2.1.0's handle layout, checked at run time). Two ways in:
// - After an unmapped key (the key callback): its value, and the unmapped members that follow,
//   are scanned; the callback cancels the parse and the Tokenizer feeds yajl again from after the
//   last of them, in the state "after a member's value" (`magma_yajl_resume_after_value`).
// - At an unmapped object or array elsewhere (an array element no key path reads): from inside
//   the start callback, yajl's read offset is moved to its closing bracket.
private import CYajl
#if canImport(Glibc)
import Glibc
#endif

extension Tokenizer {
    /// A key from yajl (the sink's `mapKey` callback). When the builder skips its value (an
    /// unmapped key of a model), the value and the unmapped members after it are read past yajl
    /// if they lie whole in the bytes at hand.
    @inline(__always)
    static func mapKey(_ builder: UnsafeMutablePointer<Sink>, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard builder.pointee.keyToken(bytes) else { return 0 }
        if builder.pointee.skipsNextValue, skipValuesInPlace(builder) { return 0 }
        return 1
    }

    /// An object or array begins (the sink's `startMap` / `startArray` callback): when the builder
    /// starts skipping it (an unmapped value), yajl is moved past it if it lies whole in the bytes
    /// at hand (`skipInPlace`).
    @inline(__always)
    static func startContainer(_ builder: UnsafeMutablePointer<Sink>, object: Bool) -> Int32 {
        let wasSkipping = builder.pointee.isSkipping
        guard object ? builder.pointee.startObject() : builder.pointee.startArray() else { return 0 }
        if !wasSkipping, builder.pointee.isSkipping { skipInPlace(builder, object: object) }
        return 1
    }

    /// Called in yajl's map_key callback of a key whose value the builder skips: scans the value
    /// and, while a `,` and another key the object does not map follow, that member too. If at
    /// least one value is valid JSON lying whole in the buffer yajl is parsing, sets the builder's
    /// `resumeAt` to the end of the last one and returns true: the callback then cancels the
    /// parse, and the Tokenizer feeds yajl again from there. A run stops before anything else (a
    /// mapped key, a key with escapes, `}`, an error, the end of the bytes), which yajl then reads.
    @inline(never)
    static func skipValuesInPlace(_ builder: UnsafeMutablePointer<Sink>) -> Bool {
        guard let room = builder.pointee.skipRoom, room >= 0, canResume, let handle = builder.pointee.position.handle else { return false }
        let position = builder.pointee.position
        let end = position.inputEnd
        var p = position.inputStart + position.resumedAt + yajl_get_bytes_consumed(handle)
        // The key's closing quote is the byte before yajl's offset, in the buffer at hand.
        guard p > position.inputStart, p <= end, (p - 1).load(as: UInt8.self) == UInt8(ascii: "\"") else { return false }
        let scanner = SkipScanner(maxTokenLength: builder.pointee.options.maxTokenLength, nestingRoom: room)
        var resume: UnsafeRawPointer?
        while true {
            p = SkipScanner.blank(p, end)
            guard p < end, p.load(as: UInt8.self) == UInt8(ascii: ":") else { break }
            p = SkipScanner.blank(p + 1, end)
            guard let valueEnd = scanner.valueEnd(p, end) else { break }
            resume = valueEnd
            // `,` and a key the object does not map: its value goes too.
            p = SkipScanner.blank(valueEnd, end)
            guard p < end, p.load(as: UInt8.self) == UInt8(ascii: ",") else { break }
            let open = SkipScanner.blank(p + 1, end)
            guard open < end, open.load(as: UInt8.self) == UInt8(ascii: "\""), let close = scanner.stringEnd(open, end) else { break }
            let key = UnsafeRawBufferPointer(start: open + 1, count: close - open - 1)
            guard memchr(open + 1, 0x5C, key.count) == nil, builder.pointee.isUnmappedKey(key) else { break }
            // The key of the value being skipped, for the path of an error right after it.
            builder.pointee.rememberUnmappedKey(key)
            p = close + 1
        }
        guard let resume else { return false }
        builder.pointee.resumeAt = resume
        builder.pointee.lastTokenEnd = resume
        return true
    }

    /// Called in yajl's start_map / start_array callback of a container the builder skips: if the
    /// container ends in the buffer yajl is parsing and is valid JSON (`SkipScanner`), moves
    /// yajl's read offset to its closing bracket, so yajl reads `{}` or `[]` and the builder's
    /// skip count closes at once. Otherwise (it runs on into later input, or holds anything the
    /// scanner does not accept, an error included) yajl reads it as before, by counting.
    @inline(never)
    static func skipInPlace(_ builder: UnsafeMutablePointer<Sink>, object: Bool) {
        guard builder.pointee.options.skipsUnmappedInPlace, canMoveOffset, let handle = builder.pointee.position.handle else { return }
        let position = builder.pointee.position
        let consumed = position.resumedAt + yajl_get_bytes_consumed(handle)
        let start = position.inputStart + consumed
        // The bracket yajl has just read is the byte before its offset in the buffer at hand.
        guard consumed > 0, start <= position.inputEnd,
              (start - 1).load(as: UInt8.self) == (object ? UInt8(ascii: "{") : UInt8(ascii: "[")) else { return }
        let scanner = SkipScanner(maxTokenLength: builder.pointee.options.maxTokenLength,
                                  nestingRoom: builder.pointee.skipNestingRoom)
        // `inputEnd` may lie past what yajl was given (up to a form feed or vertical tab), but the
        // scanner stops at either, so the bracket it finds is within yajl's bytes.
        guard let close = scanner.closingBracket(from: start, to: position.inputEnd, object: object) else { return }
        magma_yajl_set_bytes_consumed(handle, close - position.inputStart - position.resumedAt)
        // A token boundary: the held-bytes logic scans from here, not from before the value.
        builder.pointee.lastTokenEnd = close
    }

    static var canResume: Bool { YajlLayout.canResume }
    static var canMoveOffset: Bool { YajlLayout.canMoveOffset }
}

/// What the skip past yajl relies on, checked once against the yajl linked here (stored apart from
/// the generic `Tokenizer`, which cannot hold statics).
enum YajlLayout {
    /// Runs `body` on a yajl handle of its own with `callbacks` and a `P` as context, if the
    /// handle's layout is the one shim.h mirrors; false otherwise. For the checks below.
    private static func probe<P>(_ initial: P, _ callbacks: yajl_callbacks,
                                 _ body: (yajl_handle, UnsafeMutablePointer<P>) -> Bool) -> Bool {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: callbacks)
        defer { table.deallocate() }
        let probe = UnsafeMutablePointer<P>.allocate(capacity: 1)
        probe.initialize(to: initial)
        defer { probe.deinitialize(count: 1); probe.deallocate() }
        guard let handle = yajl_alloc(table, nil, probe) else { return false }
        defer { yajl_free(handle) }
        guard magma_yajl_layout_matches(handle, table, probe) != 0 else { return false }
        return body(handle, probe)
    }

    /// Whether feeding yajl again after a cancelled key callback works with the yajl linked here
    /// (`magma_yajl_resume_after_value`): checked once, on a handle of its own, by reading
    /// `{"a":"x","b":[1],"c":2}` with the value of `a` left out, and seeing yajl read on as expected.
    static let canResume: Bool = {
        guard canMoveOffset else { return false }
        struct Probe { var keys = 0; var trace: UInt64 = 0 }
        @inline(__always) func note(_ ctx: UnsafeMutableRawPointer?, _ code: UInt64) -> Int32 {
            let probe = ctx.unsafelyUnwrapped.assumingMemoryBound(to: Probe.self)
            probe.pointee.trace = probe.pointee.trace << 4 | code
            return 1
        }
        let callbacks = yajl_callbacks(
            yajl_null: { note($0, 9) }, yajl_boolean: { c, _ in note(c, 9) }, yajl_integer: nil, yajl_double: nil,
            yajl_number: { c, _, _ in note(c, 6) }, yajl_string: { c, _, _ in note(c, 7) }, yajl_start_map: { note($0, 1) },
            yajl_map_key: { ctx, _, _ in
                let probe = ctx.unsafelyUnwrapped.assumingMemoryBound(to: Probe.self)
                probe.pointee.keys += 1
                _ = note(ctx, 5)
                return probe.pointee.keys == 1 ? 0 : 1
            },
            yajl_end_map: { note($0, 2) }, yajl_start_array: { note($0, 3) }, yajl_end_array: { note($0, 4) })
        return probe(Probe(), callbacks) { handle, probe in
            let text = Array(#"{"a":"x","b":[1],"c":2}"#.utf8)
            return text.withUnsafeBufferPointer { text in
                let base = text.baseAddress.unsafelyUnwrapped
                guard yajl_parse(handle, base, text.count) == yajl_status_client_canceled, yajl_get_bytes_consumed(handle) == 4,
                      magma_yajl_resume_after_value(handle) != 0,
                      yajl_parse(handle, base + 8, text.count - 8) == yajl_status_ok,
                      yajl_complete_parse(handle) == yajl_status_ok else { return false }
                // start, key a (cancelled), key b, start, 1, end, key c, 2, end.
                return probe.pointee.trace == 0x1_5536_4562
            }
        }
    }()

    /// Whether moving yajl's offset works with the yajl linked here: checked once, on a handle of
    /// its own, by skipping the inner array of `[[1,[2]],3]` and seeing yajl read on as expected.
    /// If not (another yajl, another layout), unmapped values are skipped by counting only.
    static let canMoveOffset: Bool = {
        struct Probe { var handle: OpaquePointer?; var starts = 0; var trace: UInt64 = 0 }
        @inline(__always) func note(_ ctx: UnsafeMutableRawPointer?, _ code: UInt64) -> Int32 {
            let probe = ctx.unsafelyUnwrapped.assumingMemoryBound(to: Probe.self)
            probe.pointee.trace = probe.pointee.trace << 4 | code
            return 1
        }
        let callbacks = yajl_callbacks(
            yajl_null: { note($0, 9) }, yajl_boolean: { c, _ in note(c, 9) }, yajl_integer: nil, yajl_double: nil,
            yajl_number: { c, text, count in note(c, count == 1 && text?.pointee == 0x33 ? 3 : 9) },
            yajl_string: { c, _, _ in note(c, 9) }, yajl_start_map: { note($0, 9) }, yajl_map_key: { c, _, _ in note(c, 9) },
            yajl_end_map: { note($0, 9) },
            yajl_start_array: { ctx in
                let probe = ctx.unsafelyUnwrapped.assumingMemoryBound(to: Probe.self)
                probe.pointee.starts += 1
                if probe.pointee.starts == 2, let handle = probe.pointee.handle {
                    guard yajl_get_bytes_consumed(handle) == 2 else { return 0 }
                    magma_yajl_set_bytes_consumed(handle, 7)
                }
                return note(ctx, 1)
            },
            yajl_end_array: { note($0, 2) })
        return probe(Probe(), callbacks) { handle, probe in
            probe.pointee.handle = handle
            let text = Array("[[1,[2]],3]".utf8)
            let status = text.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
            guard status == yajl_status_ok, yajl_complete_parse(handle) == yajl_status_ok else { return false }
            // start, start, end (the skipped `[1,[2]]`), the number 3, end.
            return probe.pointee.trace == 0x11232
        }
    }()
}
