#ifndef MAGMA_CYAJL_BYTESCAN_H
#define MAGMA_CYAJL_BYTESCAN_H

/* The byte scans of JSONScanner and RecordCutter that pay in SIMD (SSE2, baseline on x86-64; bytewise elsewhere). */

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The index in [p, p + n) of the first byte that ends or interrupts a plain run of string
 * content: `"`, `\` or a control character (< 0x20); n when there is none. Sets *high to 1 when a
 * byte of 0x80 or above comes before it (the run then needs a UTF-8 check). 16 bytes a step. */
static inline size_t magma_string_run(const uint8_t *p, size_t n, int *high) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), control = _mm_set1_epi8(0x1F);
    __m128i seen = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        /* v <= 0x1F unsigned: min(v, 0x1F) == v. */
        __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                       _mm_cmpeq_epi8(_mm_min_epu8(v, control), v));
        int mask = _mm_movemask_epi8(special);
        if (mask != 0) {
            int k = __builtin_ctz((unsigned)mask);
            if ((_mm_movemask_epi8(v) & ((1 << k) - 1)) != 0 || _mm_movemask_epi8(seen) != 0) *high = 1;
            return i + (size_t)k;
        }
        seen = _mm_or_si128(seen, v);
    }
    if (_mm_movemask_epi8(seen) != 0) *high = 1;
#endif
    for (; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\' || c < 0x20) return i;
        if (c >= 0x80) *high = 1;
    }
    return n;
}

/* The index in [p, p + n) of the first byte that is not a JSON blank (space, tab, LF, CR); n when
 * there is none. 16 bytes a step. */
static inline size_t magma_blank_run(const uint8_t *p, size_t n) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i blank = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        unsigned other = ~(unsigned)_mm_movemask_epi8(blank) & 0xFFFFu;
        if (other != 0) return i + (size_t)__builtin_ctz(other);
    }
#endif
    for (; i < n; i++) {
        uint8_t c = p[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return i;
    }
    return n;
}

#endif
