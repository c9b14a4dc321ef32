#ifndef MAGMA_CYAJL_OUTPUTMAP_H
#define MAGMA_CYAJL_OUTPUTMAP_H

/* JSONWriter's large output buffers: anonymous mappings advised for transparent huge pages, so
 * that the kernel backs them with 2 MB pages (one page fault where 4 KB pages take 512), grown by
 * mremap, which moves page tables, not bytes. mremap is variadic, which Swift cannot call. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__linux__) && !defined(MREMAP_MAYMOVE)
#define MREMAP_MAYMOVE 1
extern void *mremap(void *old_address, size_t old_size, size_t new_size, int flags, ...);
#endif

/* The size of a huge page on x86-64 and arm64 (4 KB base pages); mappings are multiples of it. */
#define MAGMA_OUTPUT_MAP_UNIT ((size_t)2 << 20)

/* A readable and writable mapping of `size` bytes (a multiple of MAGMA_OUTPUT_MAP_UNIT) starting at
 * a multiple of it, where huge pages can go; NULL when the system refuses it. */
static inline void *magma_output_map(size_t size) {
    size_t span = size + MAGMA_OUTPUT_MAP_UNIT;
    char *p = (char *)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    char *start = (char *)(((uintptr_t)p + MAGMA_OUTPUT_MAP_UNIT - 1) & ~(uintptr_t)(MAGMA_OUTPUT_MAP_UNIT - 1));
    if (start > p) munmap(p, (size_t)(start - p));
    if (p + span > start + size) munmap(start + size, (size_t)(p + span - (start + size)));
#if defined(MADV_HUGEPAGE)
    madvise(start, size, MADV_HUGEPAGE);
#endif
    return start;
}

/* The mapping `p` of `old` bytes grown to `size`, its contents kept, perhaps at a new address;
 * NULL (and `p` untouched) when the system refuses. */
static inline void *magma_output_remap(void *p, size_t old, size_t size) {
#if defined(__linux__)
    void *q = mremap(p, old, size, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
#else
    void *q = magma_output_map(size);
    if (q == NULL) return NULL;
    memcpy(q, p, old);
    munmap(p, old);
    return q;
#endif
}

#endif
