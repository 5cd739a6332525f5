/* int8 ARG_MAX / ARG_MIN over the last axis with the DSP extension (aot/kernels/arg_minmax.h).  Pass 1 keeps four
 * running extremes in the bytes of one word: SSUB8 sets a GE flag per byte where the new value wins (or ties),
 * SEL takes those bytes; the four lanes are then folded.  Pass 2 finds the first byte equal to the extreme, a word
 * at a time (UADD8 of the XOR with the extreme and 0xFF sets GE on the non-zero bytes). */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/arg_minmax.h"

#if defined(__ARM_FEATURE_DSP)
#include "dsp_s8.h"

/* 0xFF in the bytes of w that are zero, 0 elsewhere: UADD8 with 0xFF carries (sets GE) in every non-zero byte. */
AOT_HOT_INLINE uint32_t zero_bytes(uint32_t w)
{
    uint32_t r;
    const uint32_t ones = 0xFFFFFFFFu, none = 0;
    __asm__("uadd8 %0, %1, %2\n\tsel %0, %3, %2" : "=&r"(r) : "r"(w), "r"(ones), "r"(none) : "cc");
    return r;
}

AOT_HOT_INLINE int32_t row_extreme(const int8_t* x, int32_t n, int32_t is_max)
{
    int32_t k = 4, best;
    uint32_t m = aot_read32(x);
    for (; k + 8 <= n; k += 8) {
        m = aot_sel_s8x4(aot_read32(x + k), m, is_max);
        m = aot_sel_s8x4(aot_read32(x + k + 4), m, is_max);
    }
    if (k + 4 <= n) {
        m = aot_sel_s8x4(aot_read32(x + k), m, is_max);
        k += 4;
    }
    m = aot_sel_s8x4(m >> 16 | m << 16, m, is_max);
    m = aot_sel_s8x4(m >> 8 | m << 24, m, is_max);
    best = (int8_t)(m & 0xFF);
    for (; k < n; k++) {
        if (is_max ? x[k] > best : x[k] < best) {
            best = x[k];
        }
    }
    return best;
}

AOT_HOT_INLINE int32_t first_index(const int8_t* x, int32_t n, int32_t v)
{
    const uint32_t pattern = 0x01010101u * (uint32_t)(uint8_t)v;
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const uint32_t zero = zero_bytes(aot_read32(x + k) ^ pattern);
        if (zero != 0) {
            return k + (int32_t)(__builtin_ctz(zero) >> 3);
        }
    }
    /* v is one of x[0..n-1] (the row's extreme): found at the latest by n - 1; the bound keeps the loop finite
     * even for a v that is absent (it then answers n - 1, never reading past the row). */
    while (k < n - 1 && x[k] != v) {
        k++;
    }
    return k;
}

/* Inlined twice, with is_max a constant: the comparisons of the loops are chosen once. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
AOT_HOT_INLINE void
rows_of(const int8_t* input, int32_t* output, int32_t rows, int32_t n, int32_t is_max)
{
    int32_t r;
    for (r = 0; r < rows; r++) {
        output[r] = first_index(input, n, row_extreme(input, n, is_max));
        input += n;
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
