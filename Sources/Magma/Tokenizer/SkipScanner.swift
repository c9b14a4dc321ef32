// The fast way past an unmapped object or array: a bracket-and-quote scan over the bytes finds
// where the value ends, and the Tokenizer has yajl resume there, so yajl never lexes it (simdjson's
// On Demand and msgspec skip unknown values the same way).
//
// The scan validates in the same pass everything a value read by yajl and EventBuilder+Text is
// held to: structure, the number grammar, literals, string escapes and control characters, strict
// UTF-8 and surrogate pairs, the size cap on strings, keys and numbers, and the depth limit. It
// never reports an error itself: on anything it does not accept (an error, a comment, a value that
// runs past the bytes at hand) it answers nil, and yajl reads the value as before, so errors keep
// their code, message and position whatever the chunking. It is stricter than yajl where that is
// simpler (only space, tab, CR and LF between tokens), never looser.
private import CYajl  // its bytescan.h: the SIMD run of string content

/// Finds the end of an object or array that is valid JSON.
struct SkipScanner {
    /// The longest string, key (bytes between the quotes, as written) or number accepted.
    let maxTokenLength: Int
    /// How many levels of containers the value may hold inside itself before the depth limit.
    let nestingRoom: Int

    /// The closing bracket of the container whose opening bracket is just before `start`, if it
    /// lies before `end` and the container is valid JSON.
    /// - Parameter object: Whether the container is an object (else an array).
    func closingBracket(from start: UnsafeRawPointer, to end: UnsafeRawPointer, object: Bool) -> UnsafeRawPointer? {
        var p = start
        // Bit i: the container at level i (0: the one being skipped) is an object.
        var objects: UInt64 = object ? 1 : 0
        var level = 0
        @inline(__always) func byte(_ q: UnsafeRawPointer) -> UInt8 { q.load(as: UInt8.self) }
        @inline(__always) func skipBlank() {
            while p < end {
                let c = byte(p)
                guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
                p += 1
            }
        }
        @inline(__always) func inObject() -> Bool { objects >> UInt64(level) & 1 != 0 }

        // After an opening bracket: a closing one, or the first member.
        var first = true
        while true {
            skipBlank()
            guard p < end else { return nil }
            if first {
                first = false
                if byte(p) == (inObject() ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if level == 0 { return p }
                    level -= 1
                    p += 1
                    if let closed = afterValue(&p, end, &level, objects) { return closed }
                    if p >= end { return nil }
                    if level < 0 { return nil }
                    continue
                }
            }
            // A member: `"key" :` in an object, then the value.
            if inObject() {
                guard byte(p) == UInt8(ascii: "\""), let close = stringEnd(p, end) else { return nil }
                p = close + 1
                skipBlank()
                guard p < end, byte(p) == UInt8(ascii: ":") else { return nil }
                p += 1
                skipBlank()
                guard p < end else { return nil }
            }
            switch byte(p) {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
                guard level <= nestingRoom, level < 64 else { return nil }
                if byte(p) == UInt8(ascii: "{") { objects |= 1 << UInt64(level) } else { objects &= ~(1 << UInt64(level)) }
                p += 1
                first = true
                continue
            case UInt8(ascii: "\""):
                guard let close = stringEnd(p, end) else { return nil }
                p = close + 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let after = numberEnd(p, end) else { return nil }
                p = after
            case UInt8(ascii: "t"):
                guard literal(p, end, "true") else { return nil }
                p += 4
            case UInt8(ascii: "f"):
                guard literal(p, end, "false") else { return nil }
                p += 5
            case UInt8(ascii: "n"):
                guard literal(p, end, "null") else { return nil }
                p += 4
            default:
                return nil
            }
            if let closed = afterValue(&p, end, &level, objects) { return closed }
            if p >= end || level < 0 { return nil }
        }
    }

    /// After a value: `,` (then `p` is at the next member, blanks skipped), or closing brackets,
    /// as many as follow. Returns the closing bracket of the skipped container when it is reached.
    /// Leaves `p` at `end` (or `level` below 0) when the bytes do not go on as JSON.
    @inline(__always)
    private func afterValue(_ p: inout UnsafeRawPointer, _ end: UnsafeRawPointer, _ level: inout Int, _ objects: UInt64) -> UnsafeRawPointer? {
        while true {
            while p < end {
                let c = p.load(as: UInt8.self)
                guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
                p += 1
            }
            guard p < end else { return nil }
            let c = p.load(as: UInt8.self)
            let object = objects >> UInt64(level) & 1 != 0
            if c == UInt8(ascii: ",") {
                p += 1
                return nil
            }
            guard c == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                level = -1
                return nil
            }
            if level == 0 { return p }
            level -= 1
            p += 1
        }
    }

    /// The first byte at or after `p` that is not a blank (space, tab, CR, LF), or `end`.
    @inline(__always)
    static func blank(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer {
        var p = p
        while p < end {
            let c = p.load(as: UInt8.self)
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
            p += 1
        }
        return p
    }

    /// One past the value that begins at `p` (no blank before it), if it lies before `end` and is
    /// valid JSON; a number must be followed by a byte before `end` (it could go on otherwise).
    func valueEnd(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer? {
        guard p < end else { return nil }
        switch p.load(as: UInt8.self) {
        case UInt8(ascii: "\""): return stringEnd(p, end).map { $0 + 1 }
        case UInt8(ascii: "{"): return closingBracket(from: p + 1, to: end, object: true).map { $0 + 1 }
        case UInt8(ascii: "["): return closingBracket(from: p + 1, to: end, object: false).map { $0 + 1 }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return numberEnd(p, end)
        case UInt8(ascii: "t"): return literal(p, end, "true") ? p + 4 : nil
        case UInt8(ascii: "f"): return literal(p, end, "false") ? p + 5 : nil
        case UInt8(ascii: "n"): return literal(p, end, "null") ? p + 4 : nil
        default: return nil
        }
    }

    /// The closing quote of the string whose opening quote is at `open`, if the string is valid
    /// (escapes, no control character, strict UTF-8, surrogate escapes in pairs) and within the cap.
    @inline(__always)
    func stringEnd(_ open: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer? {
        var q = open + 1
        var high: Int32 = 0
        while true {
            // To the next quote, backslash or control character, 16 bytes a step.
            q += magma_string_run(q.assumingMemoryBound(to: UInt8.self), end - q, &high)
            guard q < end else { return nil }
            let c = q.load(as: UInt8.self)
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { return nil }
            guard c == UInt8(ascii: "\\") else { q += 1; continue }
            guard q + 1 < end else { return nil }
            switch q.load(fromByteOffset: 1, as: UInt8.self) {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                q += 2
            case UInt8(ascii: "u"):
                guard let unit = hex4(q + 2, end) else { return nil }
                if unit >= 0xDC00 && unit <= 0xDFFF { return nil }
                if unit >= 0xD800 && unit <= 0xDBFF {
                    // A high surrogate must be followed by an escaped low one.
                    guard q + 12 <= end, q.load(fromByteOffset: 6, as: UInt8.self) == UInt8(ascii: "\\"),
                          q.load(fromByteOffset: 7, as: UInt8.self) == UInt8(ascii: "u"),
                          let low = hex4(q + 8, end), low >= 0xDC00 && low <= 0xDFFF else { return nil }
                    q += 12
                } else {
                    q += 6
                }
            default:
                return nil
            }
        }
        let content = UnsafeRawBufferPointer(start: open + 1, count: q - (open + 1))
        guard content.count <= maxTokenLength else { return nil }
        if high != 0, UTF8Validation.firstInvalid(content) >= 0 { return nil }
        return q
    }

    /// The value of four hex digits at `p`, if they are there.
    @inline(__always)
    private func hex4(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UInt32? {
        guard p + 4 <= end else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = p.load(fromByteOffset: k, as: UInt8.self)
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// One past the number at `p`, read as yajl reads one: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)?
    /// ([eE] [+-]? [0-9]+)?; nil if it is malformed, over the cap, or runs to `end`.
    @inline(__always)
    func numberEnd(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer? {
        var q = p
        if q < end, q.load(as: UInt8.self) == UInt8(ascii: "-") { q += 1 }
        guard q < end else { return nil }
        let first = q.load(as: UInt8.self)
        if first == UInt8(ascii: "0") {
            q += 1
        } else {
            guard first &- UInt8(ascii: "1") < 9 else { return nil }
            q = Self.digitRun(q + 1, end)
        }
        if q < end, q.load(as: UInt8.self) == UInt8(ascii: ".") {
            q += 1
            guard q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 else { return nil }
            q = Self.digitRun(q + 1, end)
        }
        if q < end, q.load(as: UInt8.self) | 0x20 == UInt8(ascii: "e") {
            q += 1
            if q < end, q.load(as: UInt8.self) == UInt8(ascii: "+") || q.load(as: UInt8.self) == UInt8(ascii: "-") { q += 1 }
            guard q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 else { return nil }
            q = Self.digitRun(q + 1, end)
        }
        guard q < end, q - p <= maxTokenLength else { return nil }
        return q
    }

    /// One past the run of ASCII digits at `p`, eight bytes a step while eight are there (a
    /// 17-digit double: 2 steps, not 17). In the SWAR test a byte is flagged when it is not a digit;
    /// carries and borrows only run from a flagged byte upward, so the lowest flag is the first
    /// byte that is not a digit.
    @inline(__always)
    private static func digitRun(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer {
        var q = p
        while end - q >= 8 {
            let chunk = UInt64(littleEndian: q.loadUnaligned(as: UInt64.self))
            let notDigit = ((chunk &+ 0x4646_4646_4646_4646) | (chunk &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
            if notDigit != 0 { return q + (notDigit.trailingZeroBitCount >> 3) }
            q += 8
        }
        while q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 { q += 1 }
        return q
    }

    /// Whether the bytes at `p` spell `word`.
    @inline(__always)
    func literal(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard end - p >= n else { return false }
        return memcmp(p, word.utf8Start, n) == 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
