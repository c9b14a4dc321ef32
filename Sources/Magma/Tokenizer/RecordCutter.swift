// RecordCutter.swift — Magma
//
// Where a record fed in pieces ends, so that it can be read whole by the scanner (or yajl): the
// value that begins at a record's first byte, found by its structure alone (brackets outside
// strings, a string's closing quote, a scalar's terminator), bytes scanned once across pieces,
// 64 a step inside a container (bytescan.h). It checks nothing: the reader
// that reads the record reports any error in it, at the byte one whole buffer would (the cut
// never ends a value early: where its structure closes, the grammar's does too, or the grammar
// has failed before).

private import CYajl  // its bytescan.h: the SIMD runs of string content and of a container's blocks

struct RecordCutter {
    /// Open containers in the record so far.
    private var depth = 0
    /// Inside a string (after its opening quote); after a backslash in it.
    private var inString = false
    private var escaped = false
    /// The record is a scalar other than a string (a number or literal): it ends at the first
    /// byte that cannot go on it.
    private var scalar = false
    /// The scalar began with a letter (a literal: `true`, `false`, `null`), else a number.
    private var literal = false
    /// The record's first byte has been seen.
    private(set) var started = false
    /// Whether a container's blocks are read with AVX2 (where the processor has it; the tests
    /// read the same records both ways).
    var wide = hasAVX2

    /// Whether the record under way is whole when the input ends here: a number or literal (the
    /// end completes it), not a container or string still open.
    var endsWithTheInput: Bool { scalar }

    /// Forgets the record under way (the next byte scanned begins a new one).
    mutating func reset() {
        let wide = wide
        self = RecordCutter()
        self.wide = wide
    }

    /// Scans on from `p`, the record's bytes from its first (blanks before it are the caller's);
    /// returns one past its last byte once found, or nil when every byte up to `end` belongs to it.
    mutating func scan(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer? {
        var q = p
        if !started, q < end {
            started = true
            switch q.load(as: UInt8.self) {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
            case UInt8(ascii: "\""): inString = true
            case let first:
                scalar = true
                literal = (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")
            }
            q += 1
            if scalar, q <= end, let stop = scalarEnd(q, end) { return stop }
            if scalar { return nil }
        }
        if scalar { return scalarEnd(q, end) }
        while q < end {
            // Inside a container, whole blocks of 64 bytes (SIMD: x86-64 only, where SSE2 is the
            // baseline); the byte loop below reads the rest, and everything elsewhere.
            #if arch(x86_64)
            if depth > 0, end - q >= 64 {
                var inside: UInt64 = inString ? ~0 : 0, escapes: UInt64 = escaped ? 1 : 0
                var found: Int32 = 0
                q += blocks(q.assumingMemoryBound(to: UInt8.self), end - q, &depth, &inside, &escapes, &found)
                inString = inside != 0
                escaped = escapes != 0
                if found != 0 { return q }
                continue
            }
            #endif
            if inString {
                if escaped {
                    escaped = false
                    q += 1
                    continue
                }
                var high: Int32 = 0
                q += magma_string_run(q.assumingMemoryBound(to: UInt8.self), end - q, &high)
                guard q < end else { return nil }
                let c = q.load(as: UInt8.self)
                q += 1
                if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return q }
                }
                // A control character: the record's reader rejects it; the string goes on.
                continue
            }
            let c = q.load(as: UInt8.self)
            q += 1
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return q }
            default: break
            }
        }
        return nil
    }

    #if arch(x86_64)
    private func blocks(_ p: UnsafePointer<UInt8>, _ n: Int, _ depth: inout Int, _ inside: inout UInt64, _ escapes: inout UInt64,
                        _ found: inout Int32) -> Int {
        wide ? magma_container_blocks_wide(p, n, &depth, &inside, &escapes, &found)
            : magma_container_blocks(p, n, &depth, &inside, &escapes, &found)
    }
    #endif

    /// A number ends at the first byte that cannot go on a number's text (a digit, `.`, `e`, `E`,
    /// `+`, `-`), a literal at the first that is not a letter: the next byte is then read as
    /// what follows the record, so an error there is placed at it, as yajl places it.
    private func scalarEnd(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer? {
        var q = p
        while q < end {
            let byte = q.load(as: UInt8.self)
            let goesOn = literal
                ? (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                : (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                    || byte | 0x20 == UInt8(ascii: "e") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            if !goesOn { return q }
            q += 1
        }
        return nil
    }

}

/// Whether the processor runs bytescan.h's AVX2 scans (checked once): a container's blocks in
/// `RecordCutter`, long non-ASCII text in `UTF8Validation`.
#if arch(x86_64)
let hasAVX2 = magma_has_avx2() != 0
#else
let hasAVX2 = false
#endif
