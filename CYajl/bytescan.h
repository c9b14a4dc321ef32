#ifndef MAGMA_CYAJL_BYTESCAN_H
#define MAGMA_CYAJL_BYTESCAN_H

/* The byte scans that pay in SIMD, on x86-64: runs of blanks and of string content for JSONScanner
 * (SSE2, the baseline; bytewise elsewhere), a container's 64-byte blocks for RecordCutter (SSE2,
 * or AVX2 where magma_has_avx2; not called elsewhere), and the UTF-8 check of long non-ASCII text
 * for UTF8Validation (AVX2 only). */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
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

/* A container's blocks of 64 bytes are read as simdjson's first stage finds structure, from masks
 * of the block's bytes (bit k for byte k): the backslash runs of odd length escape the byte after
 * them, the unescaped quotes' prefix XOR marks the bytes inside strings, and the brackets outside
 * them count the depth. */

/* The quotes not escaped. *odd_run: 1 when the block begins escaped (the last one ended in a
 * backslash run of odd length), and set for the next block. */
__attribute__((always_inline))
static inline uint64_t magma_unescaped_quotes(uint64_t quotes, uint64_t backslashes, uint64_t *odd_run) {
    if (backslashes == 0 && *odd_run == 0) return quotes;
    /* simdjson's find_odd_backslash_sequences. */
    const uint64_t even = 0x5555555555555555ULL, odd = ~even;
    uint64_t starts = backslashes & ~(backslashes << 1);
    uint64_t even_start_mask = even ^ *odd_run;
    uint64_t even_carries = backslashes + (starts & even_start_mask);
    uint64_t odd_carries;
    int ends_odd = __builtin_add_overflow(backslashes, starts & ~even_start_mask, &odd_carries);
    odd_carries |= *odd_run;
    *odd_run = ends_odd ? 1 : 0;
    uint64_t escaped_bytes = ((even_carries & ~backslashes) & odd) | ((odd_carries & ~backslashes) & even);
    return quotes & ~escaped_bytes;
}

/* The block's end of the container: `inside` is the prefix XOR of its unescaped quotes (1 from
 * an opening quote to its closing one), *carry all ones when the block begins inside a string
 * (set for the next block). Counts the brackets outside strings into *depth; returns the index
 * after the one that brings it to 0, or 0 when none does. With `popcnt`, a block with fewer
 * closing brackets than the depth is counted whole. */
__attribute__((always_inline))
static inline size_t magma_block_end(uint64_t opens, uint64_t closes, uint64_t inside, uint64_t *carry, long *depth,
                                     int popcnt) {
    inside ^= *carry;
    *carry = (uint64_t)((int64_t)inside >> 63);
    opens &= ~inside;
    closes &= ~inside;
    long d = *depth;
    if (popcnt && (long)__builtin_popcountll(closes) < d) {
        *depth = d + (long)__builtin_popcountll(opens) - (long)__builtin_popcountll(closes);
        return 0;
    }
    uint64_t brackets = opens | closes;
    while (brackets != 0) {
        int k = __builtin_ctzll(brackets);
        if ((opens >> k) & 1) {
            d++;
        } else if (--d == 0) {
            *depth = 0;
            return (size_t)k + 1;
        }
        brackets &= brackets - 1;
    }
    *depth = d;
    return 0;
}

/* Where a container ends, 64 bytes a step, carried from call to call: *depth; *in_string, all
 * ones when the last byte read is inside a string; *escaped, 1 when the next byte is escaped.
 * Reads whole 64-byte blocks. Returns the bytes read, with *found 0; or, when the depth reaches
 * 0, the index after that bracket, with *found 1. */
static inline size_t magma_container_blocks(const uint8_t *p, size_t n, long *depth, uint64_t *in_string, uint64_t *escaped,
                                            int *found) {
    size_t i = 0;
    *found = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), bit5 = _mm_set1_epi8(0x20),
                  opening = _mm_set1_epi8('{'), closing = _mm_set1_epi8('}');
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
        uint64_t inside = magma_unescaped_quotes(quotes, backslashes, &odd_run);
        inside ^= inside << 1; inside ^= inside << 2; inside ^= inside << 4;
        inside ^= inside << 8; inside ^= inside << 16; inside ^= inside << 32;
        size_t stop = magma_block_end(opens, closes, inside, &carry, &d, 0);
        if (stop != 0) {
            *found = 1;
            i += stop;
            break;
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

#if defined(__x86_64__)
/* Whether this processor and its system run the AVX2 scans below: AVX and AVX2, PCLMUL and
 * POPCNT (the cutter's blocks), and the system saving the 256-bit registers. */
static inline int magma_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    /* OSXSAVE, AVX, PCLMUL, POPCNT */
    if (!((c >> 27) & 1) || !((c >> 28) & 1) || !((c >> 1) & 1) || !((c >> 23) & 1)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0; /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 5) & 1; /* AVX2 */
}

/* magma_container_blocks with 32-byte loads, a carry-less multiply for the prefix XOR, and a
 * block counted whole when it cannot end the container; only where magma_has_avx2. */
__attribute__((target("avx2,pclmul,popcnt")))
static size_t magma_container_blocks_wide(const uint8_t *p, size_t n, long *depth, uint64_t *in_string, uint64_t *escaped,
                                          int *found) {
    size_t i = 0;
    *found = 0;
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), bit5 = _mm256_set1_epi8(0x20),
                  opening = _mm256_set1_epi8('{'), closing = _mm256_set1_epi8('}');
    const __m128i ones = _mm_set1_epi8((char)0xFF);
    long d = *depth;
    uint64_t carry = *in_string, odd_run = *escaped;
    for (; i + 64 <= n; i += 64) {
        __m256i lo = _mm256_loadu_si256((const __m256i *)(p + i)), hi = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        __m256i lo_folded = _mm256_or_si256(lo, bit5), hi_folded = _mm256_or_si256(hi, bit5);
#define MAGMA_MASK64(l, h, x) ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(l, x)) \
                               | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(h, x)) << 32)
        uint64_t quotes = magma_unescaped_quotes(MAGMA_MASK64(lo, hi, quote), MAGMA_MASK64(lo, hi, backslash), &odd_run);
        uint64_t opens = MAGMA_MASK64(lo_folded, hi_folded, opening), closes = MAGMA_MASK64(lo_folded, hi_folded, closing);
#undef MAGMA_MASK64
        uint64_t inside = (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)quotes), ones, 0));
        size_t stop = magma_block_end(opens, closes, inside, &carry, &d, 1);
        if (stop != 0) {
            *found = 1;
            i += stop;
            break;
        }
    }
    *depth = d;
    *in_string = carry;
    *escaped = odd_run;
    return i;
}

/* Whether [p, p + n) is strict UTF-8 (no overlong form, no encoded surrogate, nothing above
 * U+10FFFF, no truncated sequence), 32 bytes a step: the lookup algorithm of Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte" (2021), as simdjson has it. The byte
 * before p must be ASCII (or p the start). It says only whether; the caller finds where. */
__attribute__((target("avx2")))
static int magma_utf8_valid_wide(const uint8_t *p, size_t n) {
    enum {
        TOO_SHORT = 1 << 0, TOO_LONG = 1 << 1, OVERLONG_3 = 1 << 2, TOO_LARGE = 1 << 3, SURROGATE = 1 << 4,
        OVERLONG_2 = 1 << 5, TOO_LARGE_1000 = 1 << 6, OVERLONG_4 = 1 << 6, TWO_CONTS = 1 << 7,
        CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
    };
    /* The error classes a byte pair may fall in, by the first byte's high nibble, its low nibble,
     * and the second byte's high nibble: a pair is an error where all three agree. */
    const __m256i byte1_high = _mm256_setr_epi8(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m256i byte1_low = _mm256_setr_epi8(
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m256i byte2_high = _mm256_setr_epi8(
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    /* A block ending in the first bytes of a sequence (a lead of 2, 3 or 4 bytes in its last 1, 2
     * or 3 bytes) must be followed by the rest. */
    const __m256i incomplete_max = _mm256_setr_epi8(
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255, (char)255,
        (char)255, (char)255, (char)255, (char)255, (char)255, (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    __m256i error = _mm256_setzero_si256(), prev = _mm256_setzero_si256(), prev_incomplete = _mm256_setzero_si256();
    uint8_t tail[32];
    for (size_t i = 0; i < n; i += 32) {
        __m256i input;
        if (i + 32 <= n) {
            input = _mm256_loadu_si256((const __m256i *)(p + i));
        } else {
            /* The last bytes, followed by ASCII (zeros): a truncated sequence is then an error. */
            memset(tail, 0, sizeof tail);
            memcpy(tail, p + i, n - i);
            input = _mm256_loadu_si256((const __m256i *)tail);
        }
        if (_mm256_movemask_epi8(input) == 0) {
            error = _mm256_or_si256(error, prev_incomplete);
        } else {
            /* The input moved 1, 2 and 3 bytes later, the previous block's last bytes first. */
            __m256i carried = _mm256_permute2x128_si256(prev, input, 0x21);
            __m256i prev1 = _mm256_alignr_epi8(input, carried, 15);
            __m256i prev2 = _mm256_alignr_epi8(input, carried, 14);
            __m256i prev3 = _mm256_alignr_epi8(input, carried, 13);
            __m256i special = _mm256_and_si256(
                _mm256_and_si256(_mm256_shuffle_epi8(byte1_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble)),
                                 _mm256_shuffle_epi8(byte1_low, _mm256_and_si256(prev1, nibble))),
                _mm256_shuffle_epi8(byte2_high, _mm256_and_si256(_mm256_srli_epi16(input, 4), nibble)));
            /* The third and fourth bytes of 3- and 4-byte sequences must be continuations. */
            __m256i must23 = _mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
                                             _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80))));
            __m256i must23_80 = _mm256_and_si256(must23, _mm256_set1_epi8((char)0x80));
            error = _mm256_or_si256(error, _mm256_xor_si256(must23_80, special));
            prev_incomplete = _mm256_subs_epu8(input, incomplete_max);
        }
        prev = input;
    }
    error = _mm256_or_si256(error, prev_incomplete);
    return _mm256_testz_si256(error, error);
}
#endif

#endif
