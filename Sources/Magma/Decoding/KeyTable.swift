#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Maps raw UTF-8 key bytes to small integers, with no `String` made per lookup.
///
/// Open addressing over a power-of-two table; keys live in one contiguous byte block. A struct of
/// raw pointers, so a lookup costs no retain/release; its owner (a `PlanNode`) frees it.
struct KeyTable {
    /// Open-addressed slots, each `(entry + 1) | length << 16 | byte offset << 32`; 0 is empty.
    /// One load per probe: the length is compared before any byte is.
    private let slots: UnsafeMutablePointer<UInt64>
    private let bytes: UnsafeMutablePointer<UInt8>
    private let mask: Int

    init(_ keys: [[UInt8]]) {
        var size = 4
        while size < keys.count * 2 { size *= 2 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        let total = keys.reduce(0) { $0 + $1.count }
        bytes = .allocate(capacity: max(total, 1))
        var offset = 0
        for (i, k) in keys.enumerated() {
            (bytes + offset).initialize(from: k, count: k.count)
            var h = k.withUnsafeBytes { KeyTable.hash($0) } & mask
            while slots[h] != 0 { h = (h + 1) & mask }
            slots[h] = UInt64(i + 1) | UInt64(k.count) << 16 | UInt64(offset) << 32
            offset += k.count
        }
    }

    func deallocate() {
        slots.deallocate()
        bytes.deallocate()
    }

    /// The index of `key` in the keys the table was built from, or -1.
    @inline(__always)
    func index(of key: UnsafeRawBufferPointer) -> Int {
        var h = KeyTable.hash(key) & mask
        while true {
            let slot = slots[h]
            if slot == 0 { return -1 }
            if Int(truncatingIfNeeded: (slot >> 16) & 0xFFFF) == key.count,
               KeyTable.equal(UnsafeRawPointer(bytes + Int(truncatingIfNeeded: slot >> 32)), key) {
                return Int(truncatingIfNeeded: slot & 0xFFFF) - 1
            }
            h = (h + 1) & mask
        }
    }

    /// Whether the `key.count` bytes at `stored` are `key`'s: up to 16 bytes in two overlapping loads
    /// a side (a `memcmp` call cost about as much as the rest of the lookup), longer keys by `memcmp`.
    @inline(__always)
    private static func equal(_ stored: UnsafeRawPointer, _ key: UnsafeRawBufferPointer) -> Bool {
        let n = key.count
        guard n > 0, let k = key.baseAddress else { return true }
        if n >= 8 {
            guard n <= 16 else { return memcmp(stored, k, n) == 0 }
            return stored.loadUnaligned(as: UInt64.self) == k.loadUnaligned(as: UInt64.self)
                && stored.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == k.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        }
        if n >= 4 {
            return stored.loadUnaligned(as: UInt32.self) == k.loadUnaligned(as: UInt32.self)
                && stored.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == k.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        }
        return stored.load(as: UInt8.self) == k.load(as: UInt8.self)
            && stored.load(fromByteOffset: n / 2, as: UInt8.self) == k.load(fromByteOffset: n / 2, as: UInt8.self)
            && stored.load(fromByteOffset: n - 1, as: UInt8.self) == k.load(fromByteOffset: n - 1, as: UInt8.self)
    }

    /// Constant time whatever the key's length: its length, first and last eight bytes (fewer for
    /// short keys), mixed. Collisions only cost a probe; `index(of:)` compares the bytes.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        let n = key.count
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: n) &* k
        if n >= 8 {
            h ^= key.loadUnaligned(as: UInt64.self)
            h = (h ^ (h >> 31)) &* k
            h ^= key.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            h ^= UInt64(key.loadUnaligned(as: UInt32.self))
                | UInt64(key.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
        } else if n > 0 {
            h ^= UInt64(key[0]) | UInt64(key[n / 2]) << 8 | UInt64(key[n - 1]) << 16
        }
        h = (h ^ (h >> 32)) &* k
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
