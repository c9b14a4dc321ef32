// Strict UTF-8 and strict \u escapes for the text of strings and keys.
//
// yajl's own UTF-8 check is structural only (it lets overlong forms, encoded surrogates and code
// points above U+10FFFF through), and its escape decoder turns bad surrogate escapes into other,
// valid-looking text (a lone \uD800 becomes "?", \uD800\uD800 becomes U+10000). So yajl's check is
// turned off (yajl_dont_validate_strings) and every string and key is checked here instead, as
// written: by `UTF8Validation.firstInvalid` when yajl hands over the bytes in place, and by
// `EscapedText.check` (UTF-8 and \u escapes in one pass) when yajl decoded escapes into a copy.

private import CYajl  // its bytescan.h: the AVX2 check of long text

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strict UTF-8 (Unicode 15, table 3-7): no overlong forms, no encoded surrogates, nothing above
/// U+10FFFF, no truncated sequence.
enum UTF8Validation {
    /// The index of the first byte of the first invalid sequence in `bytes`, or -1 if all of it is
    /// valid UTF-8. ASCII is skipped 32 and 8 bytes at a time; `readable` (when given) is how far
    /// memory may be read past the bytes, so a short string costs one masked load.
    @inline(__always)
    static func firstInvalid(_ bytes: UnsafeRawBufferPointer, readable: UnsafeRawPointer? = nil) -> Int {
        guard let base = bytes.baseAddress else { return -1 }
        let n = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func word(_ k: Int) -> UInt64 { (base + k).loadUnaligned(as: UInt64.self) }
        if n < 8 {
            if let readable, base + 8 <= readable {
                let mask: UInt64 = n == 0 ? 0 : ~0 >> UInt64(64 - 8 * n)
                return word(0) & mask & high == 0 ? -1 : firstInvalidSlow(base, n, from: 0)
            }
            for k in 0..<n where base.load(fromByteOffset: k, as: UInt8.self) >= 0x80 { return firstInvalidSlow(base, n, from: k) }
            return -1
        }
        var i = 0
        while i &+ 32 <= n {
            if (word(i) | word(i &+ 8) | word(i &+ 16) | word(i &+ 24)) & high != 0 { return firstInvalidSlow(base, n, from: i) }
            i &+= 32
        }
        while i &+ 8 <= n {
            if word(i) & high != 0 { return firstInvalidSlow(base, n, from: i) }
            i &+= 8
        }
        // The last bytes: one word ending at the end, overlapping what was checked.
        if i < n, word(n &- 8) & high != 0 { return firstInvalidSlow(base, n, from: i) }
        return -1
    }

    /// From `start` on (the bytes before it ASCII, a non-ASCII one within the next 32): with
    /// `wide`, 32 bytes a step when there are as many left (bytescan.h), and the sequence loop
    /// only to find where the text is invalid; else one sequence at a time, back to words after
    /// ASCII.
    @inline(never)
    static func firstInvalidSlow(_ base: UnsafeRawPointer, _ n: Int, from start: Int,
                                 wide: Bool = hasAVX2) -> Int {
        #if arch(x86_64)
        if wide, n &- start >= 32, magma_utf8_valid_wide((base + start).assumingMemoryBound(to: UInt8.self), n &- start) != 0 {
            return -1
        }
        #endif
        var i = start
        while i < n {
            if base.load(fromByteOffset: i, as: UInt8.self) < 0x80 {
                if i &+ 8 <= n, (base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i &+= 8 } else { i &+= 1 }
                continue
            }
            let length = sequenceLength(base, n, at: i)
            if length == 0 { return i }
            i &+= length
        }
        return -1
    }

    /// The length of the valid sequence whose lead byte (0x80 or above) is at `i`, or 0 when it
    /// is not valid. Each sequence is checked against its exact ranges with one bounds check.
    @inline(__always)
    static func sequenceLength(_ base: UnsafeRawPointer, _ n: Int, at i: Int) -> Int {
        @inline(__always) func at(_ k: Int) -> UInt8 { base.load(fromByteOffset: k, as: UInt8.self) }
        let lead = at(i)
        if lead >= 0xE0 {
            if lead <= 0xEF {
                guard i &+ 2 < n else { return 0 }
                let b1 = at(i &+ 1)
                // E0: A0-BF (not overlong); ED: 80-9F (not a surrogate); the others 80-BF.
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard b1 >= low, b1 <= high, at(i &+ 2) & 0xC0 == 0x80 else { return 0 }
                return 3
            }
            guard lead <= 0xF4, i &+ 3 < n else { return 0 }
            let b1 = at(i &+ 1)
            // F0: 90-BF (not overlong); F4: 80-8F (not above U+10FFFF); the others 80-BF.
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard b1 >= low, b1 <= high, at(i &+ 2) & 0xC0 == 0x80, at(i &+ 3) & 0xC0 == 0x80 else { return 0 }
            return 4
        }
        // C2-DF and one continuation byte; 80-C1 are never a lead (a lone continuation, overlong).
        guard lead >= 0xC2, i &+ 1 < n, at(i &+ 1) & 0xC0 == 0x80 else { return 0 }
        return 2
    }

    /// What is wrong with the byte sequence at `index` of `bytes` (which `firstInvalid` found).
    static func describe(_ bytes: UnsafeRawBufferPointer, at index: Int) -> String {
        let lead = bytes[index]
        let shown = bytes[index..<min(index + 4, bytes.count)].map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        let what: String
        switch lead {
        case 0x80...0xBF: what = "a continuation byte without a lead byte"
        case 0xC0, 0xC1: what = "an overlong encoding"
        case 0xE0 where index + 1 < bytes.count && bytes[index + 1] < 0xA0 && bytes[index + 1] >= 0x80: what = "an overlong encoding"
        case 0xF0 where index + 1 < bytes.count && bytes[index + 1] < 0x90 && bytes[index + 1] >= 0x80: what = "an overlong encoding"
        case 0xED where index + 1 < bytes.count && bytes[index + 1] >= 0xA0 && bytes[index + 1] <= 0xBF: what = "an encoded UTF-16 surrogate"
        case 0xF4 where index + 1 < bytes.count && bytes[index + 1] >= 0x90 && bytes[index + 1] <= 0xBF: what = "a code point above U+10FFFF"
        case 0xF5...0xF7: what = "a code point above U+10FFFF"
        case 0xF8...0xFF: what = "a byte that never occurs in UTF-8"
        default: what = "a truncated sequence"
        }
        return "invalid UTF-8 (\(shown): \(what))"
    }
}

/// A JSON string as written (between its quotes): checked strictly, and decoded.
enum EscapedText {
    /// What `check` found in a string as written: the index of the first byte of its first
    /// invalid UTF-8 sequence, and of the backslash of its first \u escape of a surrogate not
    /// properly paired (a high one not followed by a \u low one, or a low one on its own); -1 for
    /// none.
    struct Problems: Equatable {
        var invalidUTF8 = -1
        var badSurrogate = -1
    }

    /// Strict UTF-8 and strict surrogate escapes in one pass over a string as written (between its
    /// quotes), sixteen bytes at a time between bytes above ASCII and `\u` escapes: the other escapes
    /// (a `\n` every 26 bytes in the bodies of GitHub issues) cannot hide a problem, so the words
    /// run over them. Stops at the first invalid UTF-8, and at the first bad surrogate escape when
    /// `stopAtBadSurrogate`.
    ///
    /// yajl's copy of a string it decoded is valid UTF-8 exactly when this finds neither: escapes
    /// decode to whole sequences, and only a bad surrogate escape decodes to other text.
    static func check(_ raw: UnsafeRawBufferPointer, stopAtBadSurrogate: Bool) -> Problems {
        var found = Problems()
        guard let base = raw.baseAddress else { return found }
        let n = raw.count
        let high: UInt64 = 0x8080_8080_8080_8080, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func at(_ k: Int) -> UInt8 { base.load(fromByteOffset: k, as: UInt8.self) }
        @inline(__always) func word(_ k: Int) -> UInt64 { (base + k).loadUnaligned(as: UInt64.self) }
        /// The high bit set exactly in the bytes of `w` equal to the byte repeated in `pattern`.
        @inline(__always) func equal(_ w: UInt64, _ pattern: UInt64) -> UInt64 {
            let x = w ^ pattern
            return ~(((x & low7) &+ low7) | x | low7)
        }
        // Sixteen bytes at a time (two loads, four compares, one test with SSE2), then words near
        // the end: faster than words alone on long escaped strings.
        let highs = SIMD16<UInt8>(repeating: 0x80), backslashes = SIMD16<UInt8>(repeating: 0x5C), us = SIMD16<UInt8>(repeating: 0x75)
        var i = 0
        while i < n {
            if i &+ 17 <= n {
                let v = (base + i).loadUnaligned(as: SIMD16<UInt8>.self)
                let next = (base + (i &+ 1)).loadUnaligned(as: SIMD16<UInt8>.self)
                let special = unsafeBitCast((v .>= highs) .| ((v .== backslashes) .& (next .== us)), to: SIMD2<UInt64>.self)
                if special[0] | special[1] == 0 { i &+= 16; continue }
                i &+= special[0] != 0 ? special[0].trailingZeroBitCount >> 3 : 8 &+ special[1].trailingZeroBitCount >> 3
            } else if i &+ 9 <= n {
                // A backslash whose next byte is a `u` (the next word is one byte on), or a byte
                // above ASCII.
                let w = word(i)
                let special = (w & high) | (equal(w, 0x5C5C_5C5C_5C5C_5C5C) & equal(word(i &+ 1), 0x7575_7575_7575_7575))
                if special == 0 { i &+= 8; continue }
                i &+= special.trailingZeroBitCount >> 3
            }
            var c = at(i)
            // A run of text that is not ASCII (CJK, say) stays in this loop.
            while c >= 0x80 {
                let length = UTF8Validation.sequenceLength(base, n, at: i)
                if length == 0 { found.invalidUTF8 = i; return found }
                i &+= length
                guard i < n else { return found }
                c = at(i)
            }
            guard c == 0x5C, i &+ 1 < n, at(i &+ 1) == UInt8(ascii: "u") else { i &+= 1; continue }
            // It begins an escape only after an even number of backslashes (`\\u` is a
            // backslash and a `u`); the byte before them is no escape's backslash.
            var run = i
            while run > 0, at(run &- 1) == 0x5C { run &-= 1 }
            guard (i &- run) & 1 == 0, let unit = raw.hexValue(at: i &+ 2, digits: 4) else { i &+= 2; continue }
            if unit & 0xF800 != 0xD800 { i &+= 6; continue }
            if unit & 0xFC00 == 0xD800, i &+ 11 < n, at(i &+ 6) == 0x5C, at(i &+ 7) == UInt8(ascii: "u"),
               let low = raw.hexValue(at: i &+ 8, digits: 4), low & 0xFC00 == 0xDC00 {
                i &+= 12
                continue
            }
            if found.badSurrogate < 0 { found.badSurrogate = i }
            if stopAtBadSurrogate { return found }
            i &+= 6
        }
        return found
    }

    /// Decodes the string as written, every bad surrogate escape becoming U+FFFD.
    static func decodeReplacingBadSurrogates(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: raw.count) { buffer, count in
            count = decode(raw, to: buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    /// Writes the string as written to `out`, its escapes decoded as yajl decodes them, every bad
    /// surrogate escape becoming U+FFFD (the document scanner hands only good ones here), and
    /// returns how many bytes it wrote. `out` has room for `raw.count` bytes: decoding never
    /// lengthens (an escape of 2, 6 or 12 bytes becomes 1, at most 3, and 4). Runs without a
    /// backslash are copied whole.
    static func decode(_ raw: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = raw.baseAddress else { return 0 }
        let n = raw.count
        var i = 0, k = 0
        @inline(__always) func put(_ byte: UInt8) {
            out[k] = byte
            k &+= 1
        }
        @inline(__always) func put(scalar: UInt32) { k &+= utf8(scalar, to: UnsafeMutableRawPointer(out + k)) }
        while i < n {
            let j = memchr(base + i, 0x5C, n - i).map { UnsafeRawPointer($0) - base } ?? n
            if j > i {
                (out + k).initialize(from: (base + i).assumingMemoryBound(to: UInt8.self), count: j - i)
                k &+= j - i
            }
            guard j + 1 < n else {
                if j < n { put(raw[j]) }
                return k
            }
            if let escape = escape(UnsafeRawBufferPointer(rebasing: raw[j...])) {
                put(scalar: escape.scalar)
                i = j &+ escape.length
                continue
            }
            // Not an escape the grammar takes (yajl and the scanner reject these before): its
            // letter; a \u escape of a surrogate not in a pair: U+FFFD; not four hex digits: as written.
            let e = raw[j + 1]
            i = j + 2
            if e != UInt8(ascii: "u") {
                put(e)
            } else if raw.hexValue(at: i, digits: 4) != nil {
                put(scalar: 0xFFFD)
                i += 4
            } else {
                put(0x5C); put(e)
            }
        }
        return k
    }

    /// The scalar that the valid escape at the start of `raw` stands for (one above U+FFFF for a
    /// `\u` surrogate pair) and the escape's length; nil for a bad escape or a surrogate escape not
    /// in a pair.
    @inline(__always)
    static func escape(_ raw: UnsafeRawBufferPointer) -> (scalar: UInt32, length: Int)? {
        guard raw.count >= 2 else { return nil }
        switch raw[1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return (UInt32(raw[1]), 2)
        case UInt8(ascii: "b"): return (8, 2)
        case UInt8(ascii: "f"): return (12, 2)
        case UInt8(ascii: "n"): return (10, 2)
        case UInt8(ascii: "r"): return (13, 2)
        case UInt8(ascii: "t"): return (9, 2)
        case UInt8(ascii: "u"):
            guard let unit = raw.hexValue(at: 2, digits: 4) else { return nil }
            if unit & 0xF800 != 0xD800 { return (unit, 6) }
            guard unit < 0xDC00, raw.count >= 12, raw[6] == UInt8(ascii: "\\"), raw[7] == UInt8(ascii: "u"),
                  let low = raw.hexValue(at: 8, digits: 4), low & 0xFC00 == 0xDC00 else { return nil }
            return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
        default: return nil
        }
    }

    /// Writes `scalar` as UTF-8 at `out` (U+FFFD for a surrogate) and returns how many bytes: not
    /// through `UTF8.encode` and a closure, whose capture of the count was checked for exclusive
    /// access at run time, on every escape.
    @inline(__always)
    static func utf8(_ scalar: UInt32, to out: UnsafeMutableRawPointer) -> Int {
        let v = Unicode.Scalar(scalar)?.value ?? 0xFFFD
        if v < 0x80 {
            out.storeBytes(of: UInt8(v), as: UInt8.self)
            return 1
        }
        if v < 0x800 {
            out.storeBytes(of: 0xC0 | UInt8(v >> 6), as: UInt8.self)
            out.storeBytes(of: 0x80 | UInt8(v & 0x3F), toByteOffset: 1, as: UInt8.self)
            return 2
        }
        if v < 0x1_0000 {
            out.storeBytes(of: 0xE0 | UInt8(v >> 12), as: UInt8.self)
            out.storeBytes(of: 0x80 | UInt8(v >> 6 & 0x3F), toByteOffset: 1, as: UInt8.self)
            out.storeBytes(of: 0x80 | UInt8(v & 0x3F), toByteOffset: 2, as: UInt8.self)
            return 3
        }
        out.storeBytes(of: 0xF0 | UInt8(v >> 18), as: UInt8.self)
        out.storeBytes(of: 0x80 | UInt8(v >> 12 & 0x3F), toByteOffset: 1, as: UInt8.self)
        out.storeBytes(of: 0x80 | UInt8(v >> 6 & 0x3F), toByteOffset: 2, as: UInt8.self)
        out.storeBytes(of: 0x80 | UInt8(v & 0x3F), toByteOffset: 3, as: UInt8.self)
        return 4
    }
}

extension UnsafeRawBufferPointer {
    /// The value of the `digits` hexadecimal digits at `at`; nil when they are not that.
    @inline(__always)
    func hexValue(at: Int, digits: Int) -> UInt32? {
        guard at + digits <= count else { return nil }
        var v: UInt32 = 0
        for k in at..<(at + digits) {
            guard let d = self[k].hexDigitValue else { return nil }
            v = v << 4 | UInt32(d)
        }
        return v
    }
}

extension UInt8 {
    /// The value of this byte as an ASCII hex digit (either case), or nil. Shared by the escape
    /// decoder and the scanner.
    @inline(__always)
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

// MARK: Strings of checked text

/// The standard library's constructor for bytes it may take as valid UTF-8 without checking
/// (`String._uncheckedFromUTF8`, exported for its own inlinable code). `String(decoding:as:)`
/// validates again what the tokenizer has already checked strictly, and on text that is not ASCII
/// its validator costs more than ours.
extension String {
    @_silgen_name("$sSS18_uncheckedFromUTF8ySSSRys5UInt8VGFZ")
    private static func stdlibUncheckedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String

    /// A string of text that has passed `UTF8Validation` (every string and key token has, and a
    /// number's text is ASCII). Not for bytes of any other origin.
    @inline(__always)
    init(checkedUTF8 bytes: UnsafeRawBufferPointer) {
        self = String.stdlibUncheckedString(bytes.assumingMemoryBound(to: UInt8.self))
    }
}
