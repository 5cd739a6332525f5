/* Multiply-accumulate loops shared by the int8 fully connected and convolution bodies (see
 * aot/kernels/requant_s8_inline.h for why bodies live in headers).
 *
 * aot_dot4_s8 computes four output channels (weight rows w_row apart) over one contiguous run of n inputs, so
 * each input value is loaded once for four multiply-accumulates; four values per iteration at constant offsets
 * from two pointers.  With n a literal the remainder loop disappears when n % 4 == 0.
 */
#ifndef AOT_KERNELS_DOT_S8_INLINE_H_
#define AOT_KERNELS_DOT_S8_INLINE_H_

#include <stdint.h>

#include "aot/kernels/requant_s8_inline.h"

/* acc[r] += sum_{d < n} w[r * w_row + d] * (x[d] + input_offset), r = 0..3. */
AOT_INLINE_BODY void aot_dot4_s8(const int8_t* x, const int8_t* w, int32_t w_row, int32_t n, int32_t input_offset,
                                 int32_t* acc)
{
    const int32_t n4 = n & ~3;
    int32_t acc0 = acc[0], acc1 = acc[1], acc2 = acc[2], acc3 = acc[3];
    int32_t d;
    for (d = 0; d < n4; d += 4) {
        const int32_t x0 = (int32_t)x[0] + input_offset;
        const int32_t x1 = (int32_t)x[1] + input_offset;
        const int32_t x2 = (int32_t)x[2] + input_offset;
        const int32_t x3 = (int32_t)x[3] + input_offset;
        /* One multiply-accumulate per statement: chains of MLA, no partial sums. */
        acc0 += (int32_t)w[0] * x0;
        acc1 += (int32_t)w[w_row] * x0;
        acc2 += (int32_t)w[2 * w_row] * x0;
        acc3 += (int32_t)w[3 * w_row] * x0;
        acc0 += (int32_t)w[1] * x1;
        acc1 += (int32_t)w[w_row + 1] * x1;
        acc2 += (int32_t)w[2 * w_row + 1] * x1;
        acc3 += (int32_t)w[3 * w_row + 1] * x1;
        acc0 += (int32_t)w[2] * x2;
        acc1 += (int32_t)w[w_row + 2] * x2;
        acc2 += (int32_t)w[2 * w_row + 2] * x2;
        acc3 += (int32_t)w[3 * w_row + 2] * x2;
        acc0 += (int32_t)w[3] * x3;
        acc1 += (int32_t)w[w_row + 3] * x3;
        acc2 += (int32_t)w[2 * w_row + 3] * x3;
        acc3 += (int32_t)w[3 * w_row + 3] * x3;
        x += 4;
        w += 4;
    }
    for (; d < n; d++) {
        const int32_t xv = (int32_t)*x++ + input_offset;
        acc0 += (int32_t)w[0] * xv;
        acc1 += (int32_t)w[w_row] * xv;
        acc2 += (int32_t)w[2 * w_row] * xv;
        acc3 += (int32_t)w[3 * w_row] * xv;
        w++;
    }
    acc[0] = acc0;
    acc[1] = acc1;
    acc[2] = acc2;
    acc[3] = acc3;
}

/* Two pixels (inputs x and x + x_step) x four output channels (weight rows w_row apart) over a run of n inputs:
 * acc[r] for the first pixel, acc[4 + r] for the second.  Each weight byte is loaded once for two
 * multiply-accumulates and each input once for four: 14 instructions per 8 MACs on the M3 (dot4: 18). */
AOT_INLINE_BODY void aot_dot4x2_s8(const int8_t* x, int32_t x_step, const int8_t* w, int32_t w_row, int32_t n,
                                   int32_t input_offset, int32_t* acc)
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
    int32_t d;
    for (d = 0; d < n; d++) {
        const int32_t p = (int32_t)x[d] + input_offset;
        const int32_t q = (int32_t)x[d + x_step] + input_offset;
        int32_t wv = w[d];
        a0 += wv * p;
        a4 += wv * q;
        wv = w[w_row + d];
        a1 += wv * p;
        a5 += wv * q;
        wv = w[2 * w_row + d];
        a2 += wv * p;
        a6 += wv * q;
        wv = w[3 * w_row + d];
        a3 += wv * p;
        a7 += wv * q;
#if defined(__GNUC__)
        /* Tap by tap (see aot_dw_mac): eight sums one after the other would keep every input live. */
        __asm__ __volatile__("" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));
#endif
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    acc[4] = a4;
    acc[5] = a5;
    acc[6] = a6;
    acc[7] = a7;
}

/* One output channel: returns acc + sum_{d < n} w[d] * (x[d] + input_offset). */
AOT_INLINE_BODY int32_t aot_dot1_s8(const int8_t* x, const int8_t* w, int32_t n, int32_t input_offset, int32_t acc)
{
    int32_t d;
    for (d = 0; d < n; d++) {
        acc += (int32_t)w[d] * ((int32_t)x[d] + input_offset);
    }
    return acc;
}

/* Requantizes acc[0..rows) into out[0..rows) (output channels oc..oc+rows; parameters at channel * quant_step). */
AOT_INLINE_BODY void aot_requant_rows_s8(const int32_t* acc, int32_t rows, int8_t* out, int32_t oc, int32_t requant,
                                         const int32_t* out_multiplier, const int32_t* out_second, int32_t quant_step,
                                         int32_t output_offset, int32_t act_min, int32_t act_max)
{
    int32_t r;
    for (r = 0; r < rows; r++) {
        out[r] = aot_requant_s8(acc[r], requant, out_multiplier[(oc + r) * quant_step],
                                out_second[(oc + r) * quant_step], output_offset, act_min, act_max);
    }
}

#endif /* AOT_KERNELS_DOT_S8_INLINE_H_ */
