#define _GNU_SOURCE
#include "allocation_counter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

// glibc's own entry points (exported, stable since GLIBC_2.2.5).
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_int counting = 0;
static atomic_uint_fast64_t allocations = 0;
static atomic_uint_fast64_t allocated_bytes = 0;

static inline void count(size_t size) {
    if (__builtin_expect(atomic_load_explicit(&counting, memory_order_relaxed), 0)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&allocated_bytes, size, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    if (p) count(size);
    return p;
}

void free(void *ptr) { __libc_free(ptr); }

void *calloc(size_t n, size_t size) {
    void *p = __libc_calloc(n, size);
    if (p) count(n * size);
    return p;
}

void *realloc(void *ptr, size_t size) {
    void *p = __libc_realloc(ptr, size);
    if (p && size > 0) count(size);
    return p;
}

void *memalign(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    if (p) count(size);
    return p;
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    if (p) count(size);
    return p;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    count(size);
    *result = p;
    return 0;
}

void *valloc(size_t size) {
    void *p = __libc_valloc(size);
    if (p) count(size);
    return p;
}

void *pvalloc(size_t size) {
    void *p = __libc_pvalloc(size);
    if (p) count(size);
    return p;
}

void allocation_counter_reset(void) {
    atomic_store(&allocations, 0);
    atomic_store(&allocated_bytes, 0);
}

void allocation_counter_enable(void) { atomic_store(&counting, 1); }

void allocation_counter_disable(void) { atomic_store(&counting, 0); }

void allocation_counter_read(uint64_t *count_out, uint64_t *bytes_out) {
    *count_out = atomic_load(&allocations);
    *bytes_out = atomic_load(&allocated_bytes);
}

int allocation_counter_is_interposed(void) {
    void *resolved = dlsym(RTLD_DEFAULT, "malloc");
    return resolved == (void *)&malloc;
}
