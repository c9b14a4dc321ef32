// The bytes the Tokenizer keeps between feeds. It touches them once per feed, never per event.

/// Bytes the Tokenizer holds from earlier feeds: a prefix already fed to yajl, which begins at a
/// token boundary at or before any token still open, and the bytes after it held back, not fed yet
/// (see `Tokenizer.feed`). Not copyable: it owns its memory and frees it.
struct HeldBytes: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    /// How many bytes are held.
    private(set) var count = 0
    /// How many of them, from the first, were fed to yajl.
    private(set) var fedCount = 0
    /// The most bytes held at once (tests check a long token is held in O(cap)).
    private(set) var mostCount = 0

    deinit { base?.deallocate() }

    /// All the held bytes.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The held bytes fed to yajl.
    var fedBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: fedCount) }

    /// The held bytes not fed to yajl yet.
    var heldBackBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base.map { $0 + fedCount }, count: count - fedCount)
    }

    /// The index of `pointer` in the held bytes (`count` for one past the last), or nil if it
    /// points elsewhere.
    func index(of pointer: UnsafeRawPointer) -> Int? {
        guard let base, pointer >= base, pointer <= base + count else { return nil }
        return pointer - UnsafeRawPointer(base)
    }

    /// Adds `bytes` at the end, held back until `markAllFed()`.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (base.unsafelyUnwrapped + count).copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count)
        count += bytes.count
        mostCount = max(mostCount, count)
    }

    /// Every byte held has been fed to yajl.
    mutating func markAllFed() { fedCount = count }

    /// Drops every byte held, keeping the memory.
    mutating func removeAll() {
        count = 0
        fedCount = 0
    }

    /// Drops the first `n` bytes, which were fed (`n <= fedCount`).
    mutating func removeFirst(_ n: Int) {
        guard n > 0, let base else { return }
        base.copyMemory(from: base + n, byteCount: count - n)
        count -= n
        fedCount -= n
    }

    /// Keeps only the first `n` bytes, which were fed (`n <= fedCount`).
    mutating func keepFirst(_ n: Int) {
        count = min(count, n)
        fedCount = min(fedCount, n)
    }

    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2, 256)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        if let base {
            grown.copyMemory(from: base, byteCount: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }
}
