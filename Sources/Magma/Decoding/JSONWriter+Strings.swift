// JSONWriter+Strings.swift — Magma
//
// Strings written as JSON: escaped sixteen bytes a step (SIMD16 compares, each block stored
// whole and its escapes written over the copy from a table).

extension JSONWriter {
    mutating func string(_ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { string(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var value = value
            value.withUTF8 { string(UnsafeRawBufferPointer($0)) }
        }
    }

    /// A JSON string from UTF-8 bytes: quotes, backslashes and control characters escaped, `/`
    /// and non-ASCII as the options say.
    ///
    /// Sixteen bytes a step (SIMD, SSE2 on x86-64): a step stores its sixteen bytes as they are,
    /// then looks for one that needs escaping; a clean step moves on by sixteen, otherwise the
    /// escape is written over the stored copy from that byte on (one table load and one store
    /// for an ASCII escape). The room for the output is checked once per string and once per
    /// escape, not per byte: the buffer always has `stringSlack` bytes beyond what the rest of
    /// the string takes unescaped. (`/` is the common escape: URLs have one every few bytes.)
    mutating func string(_ utf8: UnsafeRawBufferPointer) {
        let n = utf8.count
        reserve(n + JSONWriter.stringSlack)
        var out = UnsafeMutableRawPointer(base + count)
        out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        out += 1
        if n > 0, let start = utf8.baseAddress {
            let end = start + n
            var p = start
            let escapes = asciiEscapes
            // One set of tests for every option: the slash test looks for `"` again when slashes
            // stay; "below 0x20" becomes "below 0x20 or from 0x80" when non-ASCII is escaped
            // (with the high bit flipped, unsigned below 0xA0).
            let quote = Block(repeating: 0x22), backslash = Block(repeating: 0x5C)
            let slash = Block(repeating: escapesSlashes ? 0x2F : 0x22)
            let flip = Block(repeating: escapesNonASCII ? 0x80 : 0), below = Block(repeating: escapesNonASCII ? 0xA0 : 0x20)
            while p < end {
                let rest = end - p
                let block = rest >= 16 ? p.loadUnaligned(as: Block.self) : JSONWriter.lastBlock(p, rest, start: start)
                out.storeBytes(of: block, as: Block.self)
                let marked = (block .== quote) .| (block .== backslash) .| (block .== slash) .| ((block ^ flip) .< below)
                // As two words, not `any(marked)`: that is a call to `SIMD.min()` here.
                let lanes = unsafeBitCast(marked, to: SIMD2<UInt64>.self)
                if lanes[0] | lanes[1] == 0 {
                    let step = min(rest, 16)
                    p += step
                    out += step
                    continue
                }
                let clean = lanes[0] != 0 ? lanes[0].trailingZeroBitCount &>> 3 : 8 &+ lanes[1].trailingZeroBitCount &>> 3
                p += clean
                out += clean
                if capacity - (out - UnsafeMutableRawPointer(base)) < (end - p) + JSONWriter.stringSlack {
                    count = out - UnsafeMutableRawPointer(base)
                    grow(end - p + JSONWriter.stringSlack)
                    out = UnsafeMutableRawPointer(base + count)
                }
                let c = p.load(as: UInt8.self)
                if c < 0x80 {
                    // The escape's bytes, its length in the top byte (overwritten by what follows).
                    let escape = escapes[Int(c)]
                    out.storeBytes(of: escape, as: UInt64.self)
                    out += Int(truncatingIfNeeded: escape &>> 56)
                    p += 1
                } else {
                    p += JSONWriter.unicodeEscape(p, into: &out)
                }
            }
        }
        out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        count = out + 1 - UnsafeMutableRawPointer(base)
    }

    /// Sixteen bytes of a string, as `string` tests them.
    private typealias Block = SIMD16<UInt8>

    /// Free bytes `string` keeps beyond the unescaped rest of a string: its closing quote, the
    /// overrun of a sixteen-byte store, and the longest escape (two `\uXXXX`, 12 bytes for 4).
    private static let stringSlack = 32

    /// The last `rest` (1 to 15) bytes of a string that starts at `start`, from `p` on, in the
    /// low lanes of a block; the lanes above are `a`, which no test marks. Never reads outside
    /// the string.
    @inline(__always)
    private static func lastBlock(_ p: UnsafeRawPointer, _ rest: Int, start: UnsafeRawPointer) -> Block {
        let pad: UInt64 = 0x6161_6161_6161_6161
        var low = pad, high = pad
        if rest >= 8 {
            low = p.loadUnaligned(as: UInt64.self)
            let more = UInt64(truncatingIfNeeded: (rest &- 8) &* 8)
            if more != 0 { high = (p + rest - 8).loadUnaligned(as: UInt64.self) &>> (64 &- more) | pad &<< more }
        } else {
            let bits = UInt64(truncatingIfNeeded: rest &* 8)
            if p + rest - start >= 8 {
                low = (p + rest - 8).loadUnaligned(as: UInt64.self) &>> (64 &- bits)
            } else if rest >= 4 {
                // Two four-byte loads that overlap: the shared bytes are equal, so OR keeps them.
                low = UInt64(p.loadUnaligned(as: UInt32.self))
                    | UInt64((p + rest - 4).loadUnaligned(as: UInt32.self)) &<< UInt64(truncatingIfNeeded: (rest &- 4) &* 8)
            } else {
                let middle = rest &>> 1
                low = UInt64(p.load(as: UInt8.self)) | UInt64(p.load(fromByteOffset: middle, as: UInt8.self)) &<< UInt64(truncatingIfNeeded: middle &* 8)
                    | UInt64(p.load(fromByteOffset: rest &- 1, as: UInt8.self)) &<< UInt64(truncatingIfNeeded: (rest &- 1) &* 8)
            }
            low |= pad &<< bits
        }
        return unsafeBitCast(SIMD2<UInt64>(low, high), to: Block.self)
    }

    /// Each ASCII byte's escape (`\"`, `\n`, `\u001f`, ...) in the low bytes, its length in the
    /// top byte. Read only for bytes `string` marks. Allocated once, never freed.
    nonisolated(unsafe) static let asciiEscapeTable: UnsafePointer<UInt64> = {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 128)
        func pack(_ text: [UInt8]) -> UInt64 {
            text.enumerated().reduce(UInt64(text.count) << 56) { $0 | UInt64($1.element) << (8 * $1.offset) }
        }
        let hex = Array("0123456789abcdef".utf8)
        for c in 0..<128 {
            let byte = UInt8(c)
            switch byte {
            case 0x22, 0x5C, 0x2F: table[c] = pack([0x5C, byte])
            case 0x0A: table[c] = pack(Array(#"\n"#.utf8))
            case 0x0D: table[c] = pack(Array(#"\r"#.utf8))
            case 0x09: table[c] = pack(Array(#"\t"#.utf8))
            case 0x08: table[c] = pack(Array(#"\b"#.utf8))
            case 0x0C: table[c] = pack(Array(#"\f"#.utf8))
            case 0..<0x20: table[c] = pack(Array(#"\u00"#.utf8) + [hex[c >> 4], hex[c & 15]])
            default: table[c] = pack([byte])
            }
        }
        return UnsafePointer(table)
    }()

    /// Writes the scalar of valid UTF-8 at `p` as `\u` escapes (a surrogate pair above U+FFFF)
    /// at `out`, moving it on; the scalar's length in bytes.
    private static func unicodeEscape(_ p: UnsafeRawPointer, into out: inout UnsafeMutableRawPointer) -> Int {
        var length = 1
        let scalar = decodeScalar(UnsafeRawBufferPointer(start: p, count: 4), at: 0, length: &length)
        func unit(_ u: UInt16) {
            @inline(__always) func hex(_ v: UInt16) -> UInt8 {
                let d = UInt8(truncatingIfNeeded: v & 0xF)
                return d < 10 ? UInt8(ascii: "0") &+ d : UInt8(ascii: "a") &+ (d &- 10)
            }
            out.storeBytes(of: 0x755C, as: UInt16.self)  // \u
            for k in 0..<4 { out.storeBytes(of: hex(u >> (12 - 4 * UInt16(k))), toByteOffset: 2 + k, as: UInt8.self) }
            out += 6
        }
        if scalar.value > 0xFFFF {
            let v = scalar.value - 0x10000
            unit(UInt16(0xD800 + (v >> 10)))
            unit(UInt16(0xDC00 + (v & 0x3FF)))
        } else {
            unit(UInt16(scalar.value))
        }
        return length
    }

    /// Decodes one scalar of valid UTF-8 (Swift strings always are).
    private static func decodeScalar(_ utf8: UnsafeRawBufferPointer, at i: Int, length: inout Int) -> Unicode.Scalar {
        let c = UInt32(utf8[i])
        var value: UInt32
        if c < 0xE0 { length = 2; value = c & 0x1F } else if c < 0xF0 { length = 3; value = c & 0x0F } else { length = 4; value = c & 0x07 }
        for k in 1..<length { value = value << 6 | UInt32(utf8[i + k] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
}
