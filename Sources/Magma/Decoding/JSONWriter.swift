import Foundation

/// Appends JSON text to a byte buffer: escaping, numbers, separators and indentation. Writers of
/// streams drain the buffer as it grows; nothing here holds more than the caller leaves in it.
///
/// The buffer is a raw allocation owned by a class (`Storage`) whose address, size and capacity
/// the writer keeps in its own fields: an append is a capacity check and a store, with none of
/// an Array's uniqueness checks (they cost a fifth of the encoding time, measured with callgrind).
/// A JSONWriter is only ever used through `inout`: a copy would share the buffer.
///
/// Separators need no stack of open containers: a container has no member yet exactly when the
/// last byte written is its opening bracket (no value ends in `{` or `[`, and indentation is
/// written before a member, not after the bracket).
struct JSONWriter {
    /// malloc'd so that growing is a `realloc` (large buffers grow without a copy).
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        init(capacity: Int) {
            guard let memory = malloc(capacity) else { fatalError("out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }
        func resize(to capacity: Int) {
            guard let memory = realloc(base, capacity) else { fatalError("out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }
        deinit { free(base) }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    let options: EncodingOptions
    private var indent = 0
    /// The options' escaping, kept where the string writer reads them.
    private let escapesSlashes: Bool
    private let escapesNonASCII: Bool
    /// `asciiEscapeTable`, kept here: a static's every use is a `swift_once` call.
    private let asciiEscapes = JSONWriter.asciiEscapeTable

    init(options: EncodingOptions, capacity: Int = 4096) {
        self.options = options
        escapesSlashes = options.escapeSlashes
        escapesNonASCII = options.asciiOnly
        self.capacity = max(capacity, 64)
        storage = Storage(capacity: self.capacity)
        base = storage.base
    }

    /// The output so far (it keeps the buffer alive; valid until the next write).
    var bytes: OutputBytes { OutputBytes(owner: storage, base: base, count: count) }

    /// Calls `body` with the output so far.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    /// Drops everything from byte `mark` on.
    mutating func truncate(to mark: Int) { count = mark }

    /// Forgets open containers after a failed write (the caller drops the partial bytes).
    mutating func reset() {
        indent = 0
    }

    // MARK: Bytes

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        reserve(n)
        let target = UnsafeMutableRawPointer(base + count)
        count += n
        guard n > 0, let source = bytes.baseAddress else { return }
        // Short pieces (keys, most values) by overlapping word moves, not a call to memcpy.
        if n >= 8 {
            if n > 16 { return target.copyMemory(from: source, byteCount: n) }
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self), toByteOffset: n - 4, as: UInt32.self)
        } else {
            for k in 0..<n { target.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
        }
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let newCapacity = max(capacity * 2, count + needed)
        storage.resize(to: newCapacity)
        base = storage.base
        capacity = newCapacity
    }

    /// Whether nil optional properties are left out (``EncodingOptions/NilPolicy/omit``).
    var omitsNil: Bool { options.nilProperties == .omit }

    // MARK: Structure

    mutating func beginObject() { append(UInt8(ascii: "{")); indent += 1 }
    mutating func endObject() { close(UInt8(ascii: "}"), opening: UInt8(ascii: "{")) }
    mutating func beginArray() { append(UInt8(ascii: "[")); indent += 1 }
    mutating func endArray() { close(UInt8(ascii: "]"), opening: UInt8(ascii: "[")) }

    /// Drops an object begun at byte `mark` (its key included) that got no member.
    mutating func abandonObject(at mark: Int) {
        indent -= 1
        count = mark
    }

    /// Whether the innermost open container has no member yet.
    var containerIsEmpty: Bool {
        guard count > 0 else { return false }
        let last = base[count - 1]
        return last == UInt8(ascii: "{") || last == UInt8(ascii: "[")
    }

    /// Writes the separator and the key of the next object member.
    mutating func key(_ key: String) {
        separate()
        string(key)
        append(UInt8(ascii: ":"))
        if options.prettyPrinted { append(UInt8(ascii: " ")) }
    }

    /// Writes the separator and a key prepared by ``MemberKey``: its bytes as they are when no
    /// option changes how it is escaped.
    mutating func key(_ key: MemberKey) {
        guard key.isPlain else { return self.key(key.name) }
        separate()
        append(key.quoted)
        if options.prettyPrinted { append(UInt8(ascii: " ")) }
    }

    /// A nil property: `key: null`, or nothing when the options omit nil.
    mutating func nilMember(_ key: MemberKey) {
        if omitsNil { return }
        self.key(key)
        null()
    }

    /// Writes the separator before the next array element.
    mutating func element() { separate() }

    private mutating func close(_ bracket: UInt8, opening: UInt8) {
        indent -= 1
        if options.prettyPrinted, count > 0, base[count - 1] != opening { newline() }
        append(bracket)
    }

    @inline(__always)
    private mutating func separate() {
        if !containerIsEmpty { append(UInt8(ascii: ",")) }
        if options.prettyPrinted { newline() }
    }

    private mutating func newline() {
        append(UInt8(ascii: "\n"))
        for _ in 0..<indent { append(UInt8(ascii: " ")); append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { appendASCII(0x6C6C_756E, count: 4) }

    mutating func bool(_ value: Bool) {
        if value { appendASCII(0x6575_7274, count: 4) } else { appendASCII(0x65_736C_6166, count: 5) }
    }

    /// Appends the first `count` bytes of `word`, little-endian: short literals with no array.
    @inline(__always)
    private mutating func appendASCII(_ word: UInt64, count: Int) {
        Swift.withUnsafeBytes(of: word.littleEndian) { append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Any fixed-width integer; those of 64 bits or fewer through the non-generic writers.
    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        if T.bitWidth <= 64 {
            if T.isSigned { return int64(Int64(truncatingIfNeeded: value)) }
            return uint64(UInt64(truncatingIfNeeded: value))
        }
        if value == 0 { append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        while magnitude != 0 {
            digits.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        for d in digits.reversed() { append(d) }
    }

    mutating func int64(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        uint64(value.magnitude)
    }

    mutating func uint64(_ value: UInt64) {
        if value < 10 { append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)); return }
        // 20 digits at most, right-aligned in a two-word buffer written backwards.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            var v = value
            var i = 24
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v != 0
            append(UnsafeRawBufferPointer(rebasing: digits[i..<24]))
        }
    }

    /// A finite Double in its shortest round-trip form: integral values below 10^15 as integers,
    /// others as Swift's `description` writes them (written straight into the buffer: no String).
    mutating func double(_ value: Double) throws {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        if abs(value) < 1e15, Double(Int64(value)) == value {
            if value == 0, value.sign == .minus {
                append(UInt8(ascii: "-"))
                append(UInt8(ascii: "0"))
                return
            }
            return int64(Int64(value))
        }
        value.write(to: &self)
    }

    /// Number text that is already valid JSON.
    mutating func numberText(_ text: String) { utf8(text) }

    /// Appends a string's UTF-8 as it is.
    private mutating func utf8(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil { for b in text.utf8 { append(b) } }
    }

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
                // As two words, not `any(marked)`: that is a call to `SIMD.min()` here (callgrind).
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
    nonisolated(unsafe) private static let asciiEscapeTable: UnsafePointer<UInt64> = {
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

    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

/// Doubles write their shortest form here through the standard library's `TextOutputStreamable`
/// conformance, which hands over ASCII bytes without making a String.
extension JSONWriter: TextOutputStream {
    mutating func write(_ string: String) { utf8(string) }
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(buffer)) }
}
