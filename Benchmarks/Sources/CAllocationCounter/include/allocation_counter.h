// Allocation counting for the compare executable, without LD_PRELOAD.
//
// allocation_counter.c defines malloc, calloc, realloc, free and the aligned allocators in the
// executable itself. glibc supports replacing its allocator this way: the executable comes first
// in the global symbol scope, so every call (from Swift's runtime, Foundation, yajl, libc) binds
// here. Each function forwards straight to glibc's own implementation (__libc_malloc, ...), so
// blocks, sizes and free lists are glibc's as usual: no header, no size-class shift, one branch
// when counting is off. Counting rules follow ordo-one/malloc-interposer (package-benchmark's
// mallocCountTotal): every successful malloc, calloc, realloc (except realloc(p, 0)),
// posix_memalign, aligned_alloc, memalign, valloc and pvalloc is one allocation.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

/// Zeroes the counters.
void allocation_counter_reset(void);
/// Starts counting (process-wide).
void allocation_counter_enable(void);
/// Stops counting.
void allocation_counter_disable(void);
/// Allocations and requested bytes counted since the last reset.
void allocation_counter_read(uint64_t *allocations, uint64_t *bytes);
/// 1 if the process's `malloc` is this file's (the interposition is in effect), else 0.
int allocation_counter_is_interposed(void);

#endif
