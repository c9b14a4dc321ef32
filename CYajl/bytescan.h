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

/* Where a container ends, 64 bytes a step, as simdjson's first stage finds structure: the
 * backslash runs of odd length escape the byte after them, the unescaped quotes' prefix XOR marks
 * the bytes inside strings, and the brackets outside them count *depth. Carried from block to
 * block and call to call: *in_string, all ones when the last byte read is inside a string, and
 * *escaped, 1 when the next byte is escaped. Reads whole 64-byte blocks. Returns the bytes read,
 * with *found 0; or, when the depth reaches 0, the index after that bracket, with *found 1. */
static inline size_t magma_container_blocks(const uint8_t *p, size_t n, long *depth, uint64_t *in_string, uint64_t *escaped,
                                            int *found) {
    size_t i = 0;
    *found = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), bit5 = _mm_set1_epi8(0x20),
                  opening = _mm_set1_epi8('{'), closing = _mm_set1_epi8('}');
    const uint64_t even = 0x5555555555555555ULL, odd = ~even;
    long d = *depth;
    uint64_t carry = *in_string, odd_run = *escaped;
    for (; i + 64 <= n; i += 64) {
        uint64_t quotes = 0, backslashes = 0, opens = 0, closes = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i + 16 * (size_t)k));
            /* '[' and ']' are '{' and '}' without bit 5. */
            __m128i folded = _mm_or_si128(v, bit5);
            quotes |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * k);
            backslashes |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << (16 * k);
            opens |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, opening)) << (16 * k);
            closes |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, closing)) << (16 * k);
        }
        if (backslashes != 0 || odd_run != 0) {
            /* The bytes escaped: each after a backslash run of odd length (simdjson's
             * find_odd_backslash_sequences), a run the last block ended counted in. */
            uint64_t starts = backslashes & ~(backslashes << 1);
            uint64_t even_start_mask = even ^ odd_run;
            uint64_t even_carries = backslashes + (starts & even_start_mask);
            uint64_t odd_carries;
            int ends_odd = __builtin_add_overflow(backslashes, starts & ~even_start_mask, &odd_carries);
            odd_carries |= odd_run;
            odd_run = ends_odd ? 1 : 0;
            uint64_t escaped_bytes = ((even_carries & ~backslashes) & odd) | ((odd_carries & ~backslashes) & even);
            quotes &= ~escaped_bytes;
        }
        uint64_t inside = quotes;
        inside ^= inside << 1; inside ^= inside << 2; inside ^= inside << 4;
        inside ^= inside << 8; inside ^= inside << 16; inside ^= inside << 32;
        inside ^= carry;
        carry = (uint64_t)((int64_t)inside >> 63);
        uint64_t brackets = (opens | closes) & ~inside;
        while (brackets != 0) {
            int k = __builtin_ctzll(brackets);
            if ((opens >> k) & 1) {
                d++;
            } else if (--d == 0) {
                *depth = d;
                *in_string = carry;
                *escaped = odd_run;
                *found = 1;
                return i + (size_t)k + 1;
            }
            brackets &= brackets - 1;
        }
    }
    *depth = d;
    *in_string = carry;
    *escaped = odd_run;
#else
    (void)p; (void)n; (void)depth; (void)in_string; (void)escaped;
#endif
    return i;
}

#endif
