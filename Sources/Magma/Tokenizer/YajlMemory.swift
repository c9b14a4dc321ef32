// Memory for yajl handles that come and go: NDJSON parses each line with a handle of its own.
#if canImport(Glibc)
import Glibc
#endif

/// The blocks yajl handles free, kept for the next handle of the same stream.
///
/// NDJSON parses every line with a yajl handle of its own, so that a syntax error loses that line
/// only (yajl has no reset: a handle that failed stays failed). A handle mallocs five or six blocks
/// (itself, its lexer, two buffers, its state stack, an escape buffer), and freed them all per line:
/// allocations per record that records in one array do not make. The handles of one stream
/// allocate through this instead (`yajl_alloc_funcs`): what a handle frees is kept, and the next
/// handle's requests of the same sizes take it back, so after the first line no line allocates.
///
/// Bounded: at most `keptBlocks` blocks of at most `largestKept` bytes each are kept (a buffer
/// grown by one long token goes back to the system). One thread at a time, as the handles are.
/// Every block carries its capacity in a 16-byte header (malloc's alignment is kept).
final class YajlMemory {
    private static let header = 16
    private static let keptBlocks = 16
    private static let largestKept = 64 * 1024
    /// Free blocks (their headers), any order.
    private var free: [UnsafeMutableRawPointer] = []
    /// Blocks taken from the system (tests: a stream's lines reuse them).
    private(set) var systemAllocations = 0

    init() { free.reserveCapacity(YajlMemory.keptBlocks) }

    deinit { for block in free { Glibc.free(block) } }

    /// A block of at least `size` bytes: the smallest kept one that fits, or a new one.
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        var best = -1
        for i in free.indices where YajlMemory.capacity(free[i]) >= size {
            if best < 0 || YajlMemory.capacity(free[i]) < YajlMemory.capacity(free[best]) { best = i }
        }
        if best >= 0 {
            free.swapAt(best, free.count - 1)
            return free.removeLast() + YajlMemory.header
        }
        systemAllocations += 1
        guard let block = malloc(size + YajlMemory.header) else { return nil }
        block.storeBytes(of: size, as: Int.self)
        return block + YajlMemory.header
    }

    /// `pointer`'s block holding at least `size` bytes, its contents kept (`realloc`).
    func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(size) }
        let block = pointer - YajlMemory.header
        if YajlMemory.capacity(block) >= size { return pointer }
        systemAllocations += 1
        guard let grown = realloc(block, size + YajlMemory.header) else { return nil }
        grown.storeBytes(of: size, as: Int.self)
        return grown + YajlMemory.header
    }

    /// Gives `pointer`'s block back: kept for the next handle, or freed when enough are kept or it is large.
    func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let block = pointer - YajlMemory.header
        if free.count < YajlMemory.keptBlocks, YajlMemory.capacity(block) <= YajlMemory.largestKept {
            free.append(block)
        } else {
            Glibc.free(block)
        }
    }

    private static func capacity(_ block: UnsafeMutableRawPointer) -> Int { block.load(as: Int.self) }
}
