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

    /// How many held bytes are not fed to yajl yet.
    var heldBackCount: Int { count - fedCount }

    /// The held bytes not fed to yajl yet.
    var heldBackBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base.map { $0 + fedCount }, count: count - fedCount)
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
