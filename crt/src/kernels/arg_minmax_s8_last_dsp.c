/* int8 ARG_MAX / ARG_MIN over the last axis with the DSP extension (aot/kernels/arg_minmax.h).
 *
 * One pass whose instruction count depends on the row's length only, never on where the extreme lies (so the
 * compiler's cost model can price it before the data exist).  The row is read in groups of four words (16 values):
 * SSUB8 + SEL fold a group into four byte lanes, and one more SSUB8 sets the GE flags of the lanes where the group
 * beats the running extremes strictly; two SELs then take its bytes and its group index there, so each lane keeps
 * the first group that holds its extreme.  The lanes are folded to the extreme; the least group index among the
 * lanes that hold it is the first group holding it (USUB8 + SEL), and the first byte of that group equal to it
 * (SSUB8 + MRS of the GE flags, a mask of the 16 bytes) is the first index, as TFLite Micro answers ties.  Group
 * indices are bytes: rows of more than 256 groups are cut into blocks, and a block replaces the answer of the
 * blocks before it only with a strictly better extreme; the last axis_size % 4 values are compared one by one. */
#include "aot_sched.h"

#include "aot/kernels/arg_minmax.h"

#if defined(__ARM_FEATURE_DSP)
#include "dsp_s8.h"

/* 256 groups of 16 values: a group index fits a byte lane. */
#define BLOCK_WORDS 1024

/* The lanes of *m that x beats strictly take x, and the same lanes of *at take k (the GE flags of one SSUB8 drive
 * both SELs, hence one asm statement). */
AOT_HOT_INLINE void take(uint32_t* m, uint32_t* at, uint32_t x, uint32_t k, int32_t is_max)
{
    uint32_t t;
    if (is_max) {
        __asm__("ssub8 %[t], %[m], %[x]\n\tsel %[m], %[m], %[x]\n\tsel %[a], %[a], %[k]"
                : [t] "=&r"(t), [m] "+r"(*m), [a] "+r"(*at)
                : [x] "r"(x), [k] "r"(k)
                : "cc");
    } else {
        __asm__("ssub8 %[t], %[x], %[m]\n\tsel %[m], %[m], %[x]\n\tsel %[a], %[a], %[k]"
                : [t] "=&r"(t), [m] "+r"(*m), [a] "+r"(*at)
                : [x] "r"(x), [k] "r"(k)
                : "cc");
    }
}

AOT_HOT_INLINE uint32_t ror(uint32_t v, uint32_t s)
{
    return v >> s | v << (32u - s);
}

/* The lane-wise extreme of four words. */
AOT_HOT_INLINE uint32_t extreme4(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, int32_t is_max)
{
    return aot_sel_s8x4(aot_sel_s8x4(w0, w1, is_max), aot_sel_s8x4(w2, w3, is_max), is_max);
}

/* Lane-wise unsigned minimum of the bytes of a and b. */
AOT_HOT_INLINE uint32_t min_u8x4(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("usub8 %0, %1, %2\n\tsel %0, %2, %1" : "=&r"(r) : "r"(a), "r"(b) : "cc");
    return r;
}

/* 0xFF in the bytes of w that are not zero, 0 elsewhere: UADD8 with 0xFF carries (sets GE) in every non-zero
 * byte. */
AOT_HOT_INLINE uint32_t nonzero_bytes(uint32_t w)
{
    uint32_t r;
    const uint32_t ones = 0xFFFFFFFFu, none = 0;
    __asm__("uadd8 %0, %1, %2\n\tsel %0, %2, %3" : "=&r"(r) : "r"(w), "r"(ones), "r"(none) : "cc");
    return r;
}

/* The words of the group at x that holds `words` (1..4) words: a missing one repeats the first, whose bytes come
 * earlier, so it never holds a first index. */
AOT_HOT_INLINE void group(const int8_t* x, int32_t words, uint32_t w[4])
{
    w[0] = aot_read32(x);
    w[1] = words > 1 ? aot_read32(x + 4) : w[0];
    w[2] = words > 2 ? aot_read32(x + 8) : w[0];
    w[3] = words > 3 ? aot_read32(x + 12) : w[0];
}

/* The first byte of the group w that equals the extreme e (in every byte of e; some byte of w holds it).  No byte
 * is beyond the extreme, so SSUB8 of a word and e (of e and a word for the minimum) sets GE exactly in the bytes
 * that equal it; MRS reads the four flags (APSR bits 16..19) and the four words' flags make a mask of the group's 16
 * bytes in bits 16..31, whose lowest set bit is the answer.  The N, Z, C, V and Q flags are cleared first, so that
 * none of them lands in the mask (nothing in the CRT reads the sticky Q flag). */
AOT_HOT_INLINE int32_t first_equal(const uint32_t w[4], uint32_t e, int32_t is_max)
{
    uint32_t r, t;
    const uint32_t zero = 0;
    if (is_max) {
        __asm__("msr APSR_nzcvq, %[z]\n\t"
                "ssub8 %[t], %[w0], %[e]\n\tmrs %[r], APSR\n\t"
                "ssub8 %[t], %[w1], %[e]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #4\n\t"
                "ssub8 %[t], %[w2], %[e]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #8\n\t"
                "ssub8 %[t], %[w3], %[e]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #12"
                : [r] "=&r"(r), [t] "=&r"(t)
                : [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), [e] "r"(e), [z] "r"(zero)
                : "cc");
    } else {
        __asm__("msr APSR_nzcvq, %[z]\n\t"
                "ssub8 %[t], %[e], %[w0]\n\tmrs %[r], APSR\n\t"
                "ssub8 %[t], %[e], %[w1]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #4\n\t"
                "ssub8 %[t], %[e], %[w2]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #8\n\t"
                "ssub8 %[t], %[e], %[w3]\n\tmrs %[t], APSR\n\torr %[r], %[r], %[t], lsl #12"
                : [r] "=&r"(r), [t] "=&r"(t)
                : [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), [e] "r"(e), [z] "r"(zero)
                : "cc");
    }
    return (int32_t)__builtin_ctz(r) - 16;
}

/* The first position of the extreme of the `words` words (1..BLOCK_WORDS) at x; the extreme in *extreme.  Inlined
 * with is_max a constant. */
AOT_ALWAYS_INLINE int32_t block(const int8_t* x, int32_t words, int32_t is_max, int32_t* extreme)
{
    const int8_t* p = x + 16;
    const int8_t* end = x + 16 * (words >> 2);
    uint32_t w[4], m, at = 0, k = 0x01010101u, e;
    int32_t g = 0;
    group(x, words, w);
    m = extreme4(w[0], w[1], w[2], w[3], is_max);
    if (words > 4) {
        for (; p < end; p += 16) {
            take(&m, &at, extreme4(aot_read32(p), aot_read32(p + 4), aot_read32(p + 8), aot_read32(p + 12), is_max), k,
                 is_max);
            k += 0x01010101u;
        }
        if ((words & 3) != 0) { /* the last group, of one to three words */
            group(p, words & 3, w);
            take(&m, &at, extreme4(w[0], w[1], w[2], w[3], is_max), k, is_max);
        }
    }
    /* The extreme in every byte of e. */
    e = aot_sel_s8x4(ror(m, 16), m, is_max);
    e = aot_sel_s8x4(ror(e, 8), e, is_max);
    if (words > 4) { /* the least group index among the lanes that hold the extreme (0xFF in the others) */
        uint32_t q = at | nonzero_bytes(m ^ e);
        q = min_u8x4(ror(q, 16), q);
        q = min_u8x4(ror(q, 8), q);
        g = (int32_t)(q & 0xFFu);
        group(x + 16 * g, words - 4 * g, w);
    }
    *extreme = (int8_t)(uint8_t)(e & 0xFFu);
    return 16 * g + first_equal(w, e, is_max);
}

/* The values after the whole words of a row of n (n % 4 of them), one by one: a later one must beat the extreme. */
AOT_ALWAYS_INLINE int32_t tail(const int8_t* x, int32_t n, int32_t is_max, int32_t best, int32_t at)
{
    int32_t k;
    for (k = n & ~3; k < n; k++) {
        if (is_max ? x[k] > best : x[k] < best) {
            best = x[k];
            at = k;
        }
    }
    return at;
}

/* n >= 4 */
AOT_ALWAYS_INLINE int32_t row(const int8_t* x, int32_t n, int32_t is_max)
{
    int32_t best = is_max ? -129 : 128, at = 0, words, v, pos, base;
    for (base = 0; base + 4 <= n; base += 4 * BLOCK_WORDS) {
        words = (n - base) >> 2;
        pos = block(x + base, words < BLOCK_WORDS ? words : BLOCK_WORDS, is_max, &v);
        if (is_max ? v > best : v < best) {
            best = v;
            at = base + pos;
        }
    }
    return tail(x, n, is_max, best, at);
}

/* Inlined twice, with is_max a constant: the comparisons of the loops are chosen once.  Rows of one group (the
 * class scores of a segmentation map, often 16 or fewer) have their own loops, where the group's words are known, so
 * a row is its loads, the folds and the mask, without the block loop around them. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
AOT_HOT_INLINE void
rows_of(const int8_t* input, int32_t* output, int32_t rows, int32_t n, int32_t is_max)
{
    int32_t r, best, at;
    if (n >= 16 && n < 20) {
        for (r = 0; r < rows; r++) {
            at = block(input, 4, is_max, &best);
            output[r] = tail(input, n, is_max, best, at);
            input += n;
        }
    } else if (n < 16) {
        for (r = 0; r < rows; r++) {
            at = block(input, n >> 2, is_max, &best);
            output[r] = tail(input, n, is_max, best, at);
            input += n;
        }
    } else {
        for (r = 0; r < rows; r++) {
            output[r] = row(input, n, is_max);
            input += n;
        }
    }
}

void aot_arg_minmax_s8_last_dsp(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max)
{
    if (axis_size < 4) {
        aot_arg_minmax_s8(input, output, rows, axis_size, 1, is_max);
    } else if (is_max) {
        rows_of(input, output, rows, axis_size, 1);
    } else {
        rows_of(input, output, rows, axis_size, 0);
    }
}

#else

void aot_arg_minmax_s8_last_dsp(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max)
{
    aot_arg_minmax_s8(input, output, rows, axis_size, 1, is_max);
}

#endif
