import CAllocationCounter

/// Counts the allocations of a closure, through the executable's own allocator shims
/// (CAllocationCounter): no LD_PRELOAD, no per-allocation header, so the timed runs of the same
/// process are not disturbed.
enum AllocationCounting {
    struct Count {
        var allocations: UInt64
        var bytes: UInt64
    }

    /// True when the shims are the process's allocator and they count a known allocation.
    static let isWorking: Bool = {
        guard allocation_counter_is_interposed() == 1 else { return false }
        let count = measure {
            let array = [Int](repeating: 7, count: 1_000)  // one Swift heap allocation
            return array.count
        }
        return count.allocations >= 1
    }()

    /// Runs `body` with counting on and returns what it allocated.
    static func measure<T>(_ body: () throws -> T) rethrows -> Count {
        allocation_counter_reset()
        allocation_counter_enable()
        let result = try body()
        allocation_counter_disable()
        withExtendedLifetime(result) {}
        var allocations: UInt64 = 0
        var bytes: UInt64 = 0
        allocation_counter_read(&allocations, &bytes)
        return Count(allocations: allocations, bytes: bytes)
    }
}
