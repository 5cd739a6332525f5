/* The int16x8 dot product with the DSP extension's dual 16-bit multiply-accumulate (SMLAD), for the *_s16_dsp
 * entry points of the int16 convolution, transposed convolution and fully connected kernels (portable emulation
 * elsewhere, dsp_s8.h).
 *
 * Weight layout: within every run of n weights the kernel multiplies with n contiguous int16 inputs, each quad
 * w0 w1 w2 w3 is stored as the bytes w0 w2 w1 w3 (the compiler reorders them, compiler/ops/common/int16.py
 * dsp_quad_order), so SXTB16 of the word gives the lane pair (w0, w1) and SXTB16 ROR 8 gives (w2, w3): the pairs of
 * the input words (x0, x1) and (x2, x3) as loaded.  The n % 4 weights after the last quad keep their order.
 * Only the int32 and narrowed forms use it (one int32 sum; the compiler keeps wide layers on the portable dot):
 * SMLAD's sum wraps like the int32 accumulator. */
#ifndef AOT_KERNELS_ACC16_DSP_H_
#define AOT_KERNELS_ACC16_DSP_H_

#include <stdint.h>
#include <string.h>

#include "aot/kernels/acc16_inline.h"
#include "dsp_s8.h"

/* Two int16 values as one word (lane 0 = x[0]); a single LDR on the DSP cores, which allow it unaligned. */
AOT_HOT_INLINE uint32_t aot_read_pair16(const int16_t* x)
{
    uint32_t v;
    memcpy(&v, x, sizeof(v));
    return v;
}

/* acc->lo += sum over i < n of x[i] * w[i], w in the quad order above. */
AOT_HOT_INLINE void aot_acc16_dot_dsp(struct aot_acc16* acc, const int16_t* x, const int8_t* w, int32_t n)
{
    int32_t sum = (int32_t)acc->lo;
    int32_t q;
    for (q = n >> 2; q > 0; q--) {
        const uint32_t ww = aot_read32(w);
        sum = aot_smlad(aot_sxtb16(ww), aot_read_pair16(x), sum);
        sum = aot_smlad(aot_sxtb16_ror8(ww), aot_read_pair16(x + 2), sum);
        x += 4;
        w += 4;
    }
    for (q = n & 3; q > 0; q--) {
        sum = (int32_t)((uint32_t)sum + (uint32_t)((int32_t)*x++ * (int32_t)*w++));
    }
    acc->lo = (uint32_t)sum;
}

/* The same for two filter rows w0, w1 over the same inputs (two output channels): each input word is loaded once
 * for both. */
AOT_HOT_INLINE void aot_acc16_dot2_dsp(struct aot_acc16* acc0, struct aot_acc16* acc1, const int16_t* x,
                                       const int8_t* w0, const int8_t* w1, int32_t n)
{
    int32_t sum0 = (int32_t)acc0->lo, sum1 = (int32_t)acc1->lo;
    int32_t q;
    for (q = n >> 2; q > 0; q--) {
        const uint32_t x01 = aot_read_pair16(x), x23 = aot_read_pair16(x + 2);
        const uint32_t a = aot_read32(w0), b = aot_read32(w1);
        sum0 = aot_smlad(aot_sxtb16(a), x01, sum0);
        sum1 = aot_smlad(aot_sxtb16(b), x01, sum1);
        sum0 = aot_smlad(aot_sxtb16_ror8(a), x23, sum0);
        sum1 = aot_smlad(aot_sxtb16_ror8(b), x23, sum1);
        x += 4;
        w0 += 4;
        w1 += 4;
    }
    for (q = n & 3; q > 0; q--) {
        const int32_t v = *x++;
        sum0 = (int32_t)((uint32_t)sum0 + (uint32_t)(v * (int32_t)*w0++));
        sum1 = (int32_t)((uint32_t)sum1 + (uint32_t)(v * (int32_t)*w1++));
    }
    acc0->lo = (uint32_t)sum0;
    acc1->lo = (uint32_t)sum1;
}

#endif
