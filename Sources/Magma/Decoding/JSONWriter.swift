import CMagmaMemory
import Foundation

/// Appends JSON text to a byte buffer: escaping, numbers, separators and indentation. Writers of
/// streams drain the buffer as it grows; nothing here holds more than the caller leaves in it.
///
/// The buffer is a raw allocation owned by a class (`Storage`) whose address, size and capacity
/// the writer keeps in its own fields: an append is a capacity check and a store, with none of
/// an Array's uniqueness checks, which were a large share of encoding time.
/// A JSONWriter is only ever used through `inout`: a copy would share the buffer.
///
/// Separators need no stack of open containers: a container has no member yet exactly when the
/// last byte written is its opening bracket (no value ends in `{` or `[`, and indentation is
/// written before a member, not after the bracket).
struct JSONWriter {
    /// malloc'd while small, so that growing is a `realloc`. From `JSONWriter.mappedFrom` bytes on, an
    /// anonymous mapping advised for transparent huge pages (CMagmaMemory's `outputmap.h`), grown
    /// by `mremap` (page tables move, bytes do not). Writing a fresh 2 MB page is one page fault
    /// where 4 KB pages take 512: page faults were a large share of encoding a big output.
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        /// The mapping's size; 0 while the buffer is malloc'd.
        private(set) var mapped = 0

        /// A buffer of at least `capacity` bytes (`capacity` reports what it got).
        init(capacity: inout Int) {
            if let (memory, size) = Storage.map(capacity) {
                base = memory
                mapped = size
                capacity = size
                return
            }
            guard let memory = malloc(capacity) else { fatalError("out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }

        /// Grows the buffer to at least `capacity` bytes, keeping its first `count`; returns the
        /// capacity it has (a mapping's is a whole number of huge pages).
        func resize(to capacity: Int, keeping count: Int) -> Int {
            if mapped > 0 {
                let size = Storage.mappingSize(capacity)
                guard let memory = magma_output_remap(base, mapped, size) else { fatalError("out of memory") }
                base = memory.assumingMemoryBound(to: UInt8.self)
                mapped = size
                return size
            }
            if let (memory, size) = Storage.map(capacity) {
                memory.update(from: base, count: count)
                free(base)
                base = memory
                mapped = size
                return size
            }
            guard let memory = realloc(base, capacity) else { fatalError("out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
            return capacity
        }

        /// Gives up the buffer as the `Data` of its first `count` bytes (shrunk to fit), for a new
        /// malloc'd one of `capacity` bytes.
        func handOver(count: Int, replacement capacity: Int) -> Data {
            let output: Data
            if mapped > 0 {
                let kept = Storage.pageRounded(count)
                if kept < mapped { munmap(base + kept, mapped - kept) }
                output = Data(bytesNoCopy: base, count: count, deallocator: .custom { munmap($0, Storage.pageRounded($1)) })
                mapped = 0
            } else {
                let shrunk = realloc(base, count) ?? UnsafeMutableRawPointer(base)
                output = Data(bytesNoCopy: shrunk, count: count, deallocator: .free)
            }
            guard let memory = malloc(capacity) else { fatalError("out of memory") }
            base = memory.assumingMemoryBound(to: UInt8.self)
            return output
        }

        deinit {
            if mapped > 0 { munmap(base, mapped) } else { free(base) }
        }

        /// A fresh mapping for `capacity` bytes and its size (whole huge pages); nil below
        /// `mappedFrom`, or when the system refuses one.
        private static func map(_ capacity: Int) -> (UnsafeMutablePointer<UInt8>, Int)? {
            guard capacity >= JSONWriter.mappedFrom else { return nil }
            let size = mappingSize(capacity)
            return magma_output_map(size).map { ($0.assumingMemoryBound(to: UInt8.self), size) }
        }

        /// `capacity` rounded up to whole huge pages.
        private static func mappingSize(_ capacity: Int) -> Int {
            let unit = Int(MAGMA_OUTPUT_MAP_UNIT)
            return (capacity + unit - 1) / unit * unit
        }

        private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        private static func pageRounded(_ n: Int) -> Int { (n + pageSize - 1) / pageSize * pageSize }
    }

    private var storage: Storage
    var base: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// Whether the buffer is a mapping (from `mappedFrom` on).
    var isMapped: Bool { storage.mapped > 0 }
    /// Bytes written so far.
    var count = 0
    let options: EncodingOptions
    private var indent = 0
    /// The options' escaping, kept where the string writer reads them.
    let escapesSlashes: Bool
    let escapesNonASCII: Bool
    /// `asciiEscapeTable`, kept here: a static's every use is a `swift_once` call.
    let asciiEscapes = JSONWriter.asciiEscapeTable

    init(options: EncodingOptions, capacity: Int = 4096) {
        self.options = options
        escapesSlashes = options.escapeSlashes
        escapesNonASCII = options.asciiOnly
        var capacity = max(capacity, 64)
        storage = Storage(capacity: &capacity)
        self.capacity = capacity
        base = storage.base
    }

    /// Calls `body` with the output so far.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    /// The output as `Data`, the writer emptied. An output of `handOverSize` bytes or more is not
    /// copied: its buffer becomes the `Data`'s (shrunk to fit) and the writer starts again with a
    /// small one: copying a large output costs time and cache misses for nothing.
    mutating func takeData() -> Data {
        defer { count = 0 }
        guard count >= JSONWriter.handOverSize, isKnownUniquelyReferenced(&storage) else {
            return withUnsafeBytes { Data($0) }
        }
        let output = storage.handOver(count: count, replacement: 4096)
        base = storage.base
        capacity = 4096
        return output
    }

    /// The size from which `takeData` hands its buffer over rather than copying it.
    static let handOverSize = 1 << 20

    /// The capacity from which the buffer is a mapping advised for huge pages (below it, malloc
    /// reuses its heap from one output to the next without new pages); its capacity is then a
    /// whole number of 2 MB units.
    static let mappedFrom = 4 << 20

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
    mutating func grow(_ needed: Int) {
        capacity = storage.resize(to: max(capacity * 2, count + needed), keeping: count)
        base = storage.base
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

    /// Whether the bytes from `mark` on are exactly `null`.
    func endsWithNull(from mark: Int) -> Bool {
        count - mark == 4 && base[mark] == UInt8(ascii: "n")
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

    /// A finite Double as JSONEncoder writes it (`descriptionForm`). Only an integral value's
    /// description can end in ".0"; below 10^15 that is its digits, which the integer writer writes.
    mutating func double(_ value: Double) throws {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        if value.rounded(.towardZero) != value { return value.write(to: &self) }
        if abs(value) < 1e15, value != 0 || value.sign == .plus { return int64(Int64(value)) }
        descriptionForm(value)
    }

    /// A finite Float as JSONEncoder writes it.
    mutating func float(_ value: Float) throws {
        guard value.isFinite else { throw JSONError(.notEncodable, "\(value) has no JSON form") }
        descriptionForm(value)
    }

    /// `description` without a trailing ".0", as JSONEncoder writes a float, with no String made.
    mutating func descriptionForm<F: BinaryFloatingPoint & TextOutputStreamable>(_ value: F) {
        value.write(to: &self)
        // `base` lives as long as the writer; a description has at least three bytes ("0.0").
        if base[count &- 2] == UInt8(ascii: "."), base[count &- 1] == UInt8(ascii: "0") { count &-= 2 }
    }

    /// Number text that is already valid JSON.
    mutating func numberText(_ text: String) { utf8(text) }

    /// Appends a string's UTF-8 as it is.
    private mutating func utf8(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if done == nil { for b in text.utf8 { append(b) } }
    }

    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

/// Doubles write their shortest form here through the standard library's `TextOutputStreamable`
/// conformance, which hands over ASCII bytes without making a String.
extension JSONWriter: TextOutputStream {
    mutating func write(_ string: String) { utf8(string) }
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(buffer)) }
}
