/* Accumulation and requantization shared by the int16x8 kernels (int16 activations, int8 weights): CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV with int16 input and output (zero points 0).
 *
 * TFLite accumulates these layers in 32 bits when their bias is int32 and in 64 bits when it is int64, and
 * requantizes each with its own rounding.  A layer's `mode` (chosen by the compiler, compiler/ops/common/int16.py,
 * and recorded in the layer's parameters) says which form the kernel computes:
 *  - AOT_ACC16_I32: int32 bias; one int32 accumulator that wraps like TFLite's, requantized by
 *    aot_multiply_by_quantized_multiplier(multiplier, shift);
 *  - AOT_ACC16_NARROW: int64 bias that the compiler narrowed to int32 after proving |bias| + 32768 * sum|w|
 *    < 2^31 for every channel, so the int32 sum equals TFLite's int64 one; `multiplier` / `shift` hold the
 *    reduced multiplier and total shift of aot_requant_acc64();
 *  - AOT_ACC16_WIDE: the bias as two int32 words per channel (low, high); every product is split by the input's
 *    low byte into two int32 sums (each fits for up to 65,535 taps), which aot_requant_acc64() combines with
 *    the bias in 64 bits.  That helper is the only place a 64-bit value exists.
 * Accumulators are uint32_t so a wrapping sum (possible only in the I32 form, as in TFLite) is not undefined. */
#ifndef AOT_KERNELS_ACC16_INLINE_H_
#define AOT_KERNELS_ACC16_INLINE_H_

#include <stdint.h>
#include <stddef.h>

#include "aot/requant.h"

#define AOT_ACC16_I32    0
#define AOT_ACC16_NARROW 1
#define AOT_ACC16_WIDE   2

struct aot_acc16 {
    uint32_t hi; /* AOT_ACC16_WIDE: sum of w * (x - x mod 256) / 256 */
    uint32_t lo; /* the sum (I32, NARROW) or the sum of w * (x mod 256) (WIDE) */
};

/* acc += sum over i < n of x[i * x_step] * w[i * w_step]. */
static inline void aot_acc16_dot(struct aot_acc16* acc, int32_t mode, const int16_t* x, int32_t x_step, const int8_t* w,
                                 int32_t w_step, int32_t n)
{
    int32_t i;
    if (mode == AOT_ACC16_WIDE) {
        uint32_t hi = acc->hi, lo = acc->lo;
        for (i = 0; i < n; i++) {
            const int32_t v = x[i * x_step], low = v & 255, wv = w[i * w_step];
            hi += (uint32_t)(wv * ((v - low) / 256));
            lo += (uint32_t)(wv * low);
        }
        acc->hi = hi;
        acc->lo = lo;
    } else {
        uint32_t lo = acc->lo;
        for (i = 0; i < n; i++) {
            lo += (uint32_t)((int32_t)x[i * x_step] * (int32_t)w[i * w_step]);
        }
        acc->lo = lo;
    }
}

/* The output value of channel c: bias (NULL: none; two words per channel in the WIDE form) added, requantized
 * and clamped to [act_min, act_max]. */
static inline int16_t aot_acc16_out(const struct aot_acc16* acc, int32_t mode, const int32_t* bias, int32_t c,
                                    int32_t multiplier, int32_t shift, int32_t act_min, int32_t act_max)
{
    int32_t r;
    if (mode == AOT_ACC16_WIDE) {
        r = aot_requant_acc64((int32_t)acc->hi, (int32_t)acc->lo, bias != NULL ? bias + 2 * c : NULL, multiplier,
                              shift);
    } else {
        const int32_t sum = (int32_t)(acc->lo + (bias != 0 ? (uint32_t)bias[c] : 0u));
        r = mode == AOT_ACC16_I32 ? aot_multiply_by_quantized_multiplier(sum, multiplier, shift)
                                  : aot_requant_acc64(0, sum, 0, multiplier, shift);
    }
    r = r < act_min ? act_min : r;
    r = r > act_max ? act_max : r;
    return (int16_t)r;
}

#endif
