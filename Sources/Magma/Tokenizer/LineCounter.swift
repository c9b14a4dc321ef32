#if canImport(Glibc)
import Glibc
#endif

/// The lines of input fed chunk by chunk, for the line and column of an error: bytes are counted
/// once, when the Tokenizer lets them go, so an error costs no pass over the input before its
/// feed. The bytes it still holds (the carry, from the last token boundary on) are not counted
/// yet: an error the grammar finds in them (after a comment or a vertical tab that yajl passed
/// over, with newlines after it) is placed by counting them up to it.
/// (Whole-buffer decoding needs none of this: on error it locates in the buffer with a counter
/// that has counted nothing, the buffer being the chunk.)
struct LineCounter {
    /// Newlines in the bytes counted so far.
    private(set) var newlines = 0
    /// Offset in the whole input of the first byte after the last of them.
    private(set) var lastLineStart = 0

    /// Counts the newlines of `chunk`, which begins at `start` in the whole input.
    /// With memchr: a byte loop was a visible part of a streamed array's decode.
    mutating func count(_ chunk: UnsafeRawBufferPointer, at start: Int) {
        guard let base = chunk.baseAddress else { return }
        let end = base + chunk.count
        var next = base
        var last: UnsafeRawPointer?
        while next < end, let found = memchr(next, 10, end - next) {
            newlines += 1
            last = UnsafeRawPointer(found)
            next = last! + 1
        }
        if let last { lastLineStart = start + (last - base) + 1 }
    }

    /// Sets the line and column of `error`, at `offset` in the whole input, from the bytes not
    /// counted yet: `carry`, which ends at `start`, then `chunk`, which begins there.
    func locate(_ error: inout JSONError, offset: Int, carry: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
                chunk: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), at start: Int) {
        var line = newlines, lineStart = lastLineStart
        for (bytes, begin) in [(carry, start - carry.count), (chunk, start)] {
            let upTo = min(max(offset - begin, 0), bytes.count)
            for i in 0..<upTo where bytes[i] == 10 { line += 1; lineStart = begin + i + 1 }
        }
        error.line = line + 1
        error.column = offset - lineStart + 1
    }
}

/// The lines of a stream cut into records, counted as the stream goes by, for the line and column
/// of the offsets it stands at (a record's first byte, the end).
struct StreamLines {
    private var newlines = 0
    private var lastLineStart = 0
    /// Offsets before this one are counted.
    private var counted = 0

    /// Counts the newlines of `bytes` (at `start` in the input) not counted yet, up to offset `to`.
    mutating func pass(_ bytes: UnsafeRawBufferPointer, at start: Int, to: Int) {
        // A gap would leave its newlines out of every later place (a bug found by fuzzing once).
        assert(start <= counted || to <= counted, "bytes \(counted)..<\(start) were never counted")
        let from = max(counted, start), upTo = min(to, start + bytes.count)
        guard upTo > from, let base = bytes.baseAddress else { return }
        var next = base + (from - start)
        let end = base + (upTo - start)
        while next < end, let found = memchr(next, 10, end - next) {
            newlines += 1
            next = UnsafeRawPointer(found) + 1
            lastLineStart = start + (next - base)
        }
        counted = upTo
    }

    /// The line and column of `offset`, at or after the last newline counted and not past the
    /// counted bytes (or just past them, with no newline between).
    func place(_ offset: Int) -> (line: Int, column: Int) { (newlines + 1, offset - lastLineStart + 1) }

    /// The line and column of `offset` in a record whose bytes are `record`, from offset `start`
    /// at `place`.
    static func place(_ offset: Int, in record: UnsafeRawBufferPointer, from start: Int,
                      at place: (line: Int, column: Int)) -> (line: Int, column: Int) {
        var line = place.line, column = place.column
        for byte in record.prefix(max(offset - start, 0)) {
            if byte == 10 { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}

/// Blanks passed and not held: how many, and their lines, so that blanks standing in for them
/// place what follows at the same byte, line and column.
struct SuffixBlanks {
    private(set) var count = 0
    private var newlines = 0
    /// The blanks after the last newline.
    private var tail = 0

    mutating func count(_ blanks: UnsafeRawBufferPointer) {
        for byte in blanks {
            if byte == 0x0A {
                newlines += 1
                tail = 0
            } else {
                tail += 1
            }
        }
        count += blanks.count
    }

    /// Spaces, then the newlines, then the spaces after the last one.
    func bytes() -> [UInt8] {
        [UInt8](repeating: 0x20, count: count - newlines - tail) + [UInt8](repeating: 0x0A, count: newlines)
            + [UInt8](repeating: 0x20, count: tail)
    }
}
