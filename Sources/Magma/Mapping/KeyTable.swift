/// Maps raw UTF-8 key bytes to small integers, with no `String` made per lookup.
///
/// Open addressing over a power-of-two table; keys live in one contiguous byte block. Built once
/// per plan node and immutable afterwards.
final class KeyTable {
    private let slots: UnsafeMutableBufferPointer<Int32>
    private let starts: [Int]
    private let bytes: UnsafeMutableRawBufferPointer
    private let mask: Int

    init(_ keys: [[UInt8]]) {
        var size = 4
        while size < keys.count * 2 { size *= 2 }
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: -1)
        var starts: [Int] = [0]
        for k in keys { starts.append(starts.last! + k.count) }
        self.starts = starts
        bytes = .allocate(byteCount: max(starts.last!, 1), alignment: 1)
        for (i, k) in keys.enumerated() {
            for (j, c) in k.enumerated() { bytes[starts[i] + j] = c }
            var h = KeyTable.hash(k.withUnsafeBytes { $0 }) & mask
            while slots[h] >= 0 { h = (h + 1) & mask }
            slots[h] = Int32(i)
        }
    }

    deinit {
        slots.deallocate()
        bytes.deallocate()
    }

    /// The index of `key` in the keys the table was built from, or -1.
    @inline(__always)
    func index(of key: UnsafeRawBufferPointer) -> Int {
        var h = KeyTable.hash(key) & mask
        while true {
            let i = Int(slots[h])
            if i < 0 { return -1 }
            let start = starts[i]
            if starts[i + 1] - start == key.count,
               key.count == 0 || memcmp(bytes.baseAddress! + start, key.baseAddress!, key.count) == 0 {
                return i
            }
            h = (h + 1) & mask
        }
    }

    /// FNV-1a: cheap on the short keys JSON objects have.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in key { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
