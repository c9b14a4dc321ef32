// Skipping an unmapped object or array past yajl: SkipScanner finds its end and yajl's read offset
// is moved there from inside the start callback (yajl 2.1.0's handle layout, checked at run time).
private import CYajl

/// An object or array begins: when the builder starts skipping it (an unmapped value), yajl is
/// moved past it if it lies whole in the bytes at hand (`Tokenizer.skipInPlace`).
@inline(__always)
func startContainer(_ ctx: UnsafeMutableRawPointer?, object: Bool) -> Int32 {
    let builder = eventBuilder(ctx)
    let wasSkipping = builder.pointee.isSkipping
    guard object ? builder.pointee.startObject() : builder.pointee.startArray() else { return 0 }
    if !wasSkipping, builder.pointee.isSkipping { Tokenizer.skipInPlace(builder, object: object) }
    return 1
}

extension Tokenizer {
    /// Called in yajl's start_map / start_array callback of a container the builder skips: if the
    /// container ends in the buffer yajl is parsing and is valid JSON (`SkipScanner`), moves
    /// yajl's read offset to its closing bracket, so yajl reads `{}` or `[]` and the builder's
    /// skip count closes at once. Otherwise (it runs on into later input, or holds anything the
    /// scanner does not accept, an error included) yajl reads it as before, by counting.
    @inline(never)
    static func skipInPlace(_ builder: UnsafeMutablePointer<EventBuilder>, object: Bool) {
        guard builder.pointee.options.skipsUnmappedInPlace, canMoveOffset, let handle = builder.pointee.position.handle else { return }
        let position = builder.pointee.position
        let consumed = yajl_get_bytes_consumed(handle)
        let start = position.inputStart + consumed
        // The bracket yajl has just read is the byte before its offset in the buffer at hand.
        guard consumed > 0, start <= position.inputEnd,
              (start - 1).load(as: UInt8.self) == (object ? UInt8(ascii: "{") : UInt8(ascii: "[")) else { return }
        let scanner = SkipScanner(maxTokenLength: builder.pointee.options.maxTokenLength,
                                  nestingRoom: builder.pointee.skipNestingRoom)
        // `inputEnd` may lie past what yajl was given (up to a form feed or vertical tab), but the
        // scanner stops at either, so the bracket it finds is within yajl's bytes.
        guard let close = scanner.closingBracket(from: start, to: position.inputEnd, object: object) else { return }
        magma_yajl_set_bytes_consumed(handle, close - position.inputStart)
        // A token boundary: the held-bytes logic scans from here, not from before the value.
        builder.pointee.lastTokenEnd = close
    }

    /// Whether moving yajl's offset works with the yajl linked here: checked once, on a handle of
    /// its own, by skipping the inner array of `[[1,[2]],3]` and seeing yajl read on as expected.
    /// If not (another yajl, another layout), unmapped values are skipped by counting only.
    static let canMoveOffset: Bool = {
        struct Probe { var handle: OpaquePointer?; var starts = 0; var trace: UInt64 = 0 }
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        defer { table.deallocate() }
        @inline(__always) func note(_ ctx: UnsafeMutableRawPointer?, _ code: UInt64) -> Int32 {
            let probe = ctx.unsafelyUnwrapped.assumingMemoryBound(to: Probe.self)
            probe.pointee.trace = probe.pointee.trace << 4 | code
            return 1
        }
        table.initialize(to: yajl_callbacks(
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
            yajl_end_array: { note($0, 2) }))
        let probe = UnsafeMutablePointer<Probe>.allocate(capacity: 1)
        probe.initialize(to: Probe())
        defer { probe.deallocate() }
        guard let handle = yajl_alloc(table, nil, probe) else { return false }
        defer { yajl_free(handle) }
        guard magma_yajl_layout_matches(handle, table, probe) != 0 else { return false }
        probe.pointee.handle = handle
        let text = Array("[[1,[2]],3]".utf8)
        let status = text.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
        guard status == yajl_status_ok, yajl_complete_parse(handle) == yajl_status_ok else { return false }
        // start, start, end (the skipped `[1,[2]]`), the number 3, end.
        return probe.pointee.trace == 0x11232
    }()
}
