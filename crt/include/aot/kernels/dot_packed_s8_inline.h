/* Two int8 multiply-accumulates per multiply on cores without SIMD multiplies (Cortex-M0/M3): the weights of two
 * output channels packed into one 32-bit word at compile time (compiler/ops/common/packed.py), for the
 * shape-specialized convolution and fully connected bodies (see aot/kernels/requant_s8_inline.h for why bodies live in
 * headers).
 *
 * A packed word is W = w_a + w_b * 2^23 (channel a in the low lane, b in the high lane; |W| <= 2^30 + 128, exact in
 * int32).  For one input value x, x * W = x * w_a + (x * w_b) * 2^23, and the 64-bit sum of such products (SMLAL on
 * the M3: one instruction for two MACs) started at AOT_PACK_BIAS is
 *     A = (AOT_PACK_BIAS + L) + H * 2^23,  L = sum x * w_a,  H = sum x * w_b.
 * Whenever -2^22 <= L < 2^22 the low 23 bits of A are AOT_PACK_BIAS + L exactly and floor(A / 2^23) is H, so both
 * channels' sums come back unchanged (aot_pack_split).  The compiler packs a layer only where it proves that bound
 * from the weights (x is an int8 value or the zero point: the input offset is folded into the bias); a run of at
 * most AOT_PACK_SAFE_RUN taps meets it for any weights (255 * 128 * 128 < 2^22), which is how the fully connected
 * body splits a longer accumulation.
 *
 * Weight layout of a group of four output channels (4g .. 4g+3; channels past the layer's are zero): per tap t two
 * words, (4g, 4g+1) then (4g+2, 4g+3), so one group's weights are 2 * taps consecutive words.
 */
#ifndef AOT_KERNELS_DOT_PACKED_S8_INLINE_H_
#define AOT_KERNELS_DOT_PACKED_S8_INLINE_H_

#include <stdint.h>

#include "aot/kernels/requant_s8_inline.h"

#define AOT_PACK_SHIFT    23
#define AOT_PACK_BIAS     ((int64_t)1 << (AOT_PACK_SHIFT - 1))
#define AOT_PACK_SAFE_RUN 255

/* The tap loops: unrolled by 8 (constant offsets, a quarter of the loop overhead per tap). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define AOT_PACK_UNROLL _Pragma("GCC unroll 8")
#else
#define AOT_PACK_UNROLL
#endif

/* The two channel sums held by a packed accumulator (see above): *lo_sum for the low lane, *hi_sum for the high. */
AOT_INLINE_BODY void aot_pack_split(int64_t a, int32_t* lo_sum, int32_t* hi_sum)
{
    *hi_sum = (int32_t)(a >> AOT_PACK_SHIFT);
    *lo_sum = (int32_t)((uint32_t)a & ((1u << AOT_PACK_SHIFT) - 1u)) - (int32_t)AOT_PACK_BIAS;
}

/* One pixel, four channels: acc[j] += sum_{d < n} x[d] * w[2 d + j], j = 0, 1. */
AOT_INLINE_BODY void aot_pdot4_s8(const int8_t* x, const int32_t* w, int32_t n, int64_t* acc)
{
    int64_t a0 = acc[0], a1 = acc[1];
    int32_t d;
    AOT_PACK_UNROLL
    for (d = 0; d < n; d++) {
        const int32_t p = x[d];
        a0 += (int64_t)p * w[0];
        a1 += (int64_t)p * w[1];
        w += 2;
    }
    acc[0] = a0;
    acc[1] = a1;
}

/* Two pixels (inputs x and x + x_step), four channels: acc[j] for the first, acc[2 + j] for the second.  Each
 * tap: two input loads, two weight loads, four SMLAL for 8 MACs. */
AOT_INLINE_BODY void aot_pdot4x2_s8(const int8_t* x, int32_t x_step, const int32_t* w, int32_t n, int64_t* acc)
{
    int64_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t d;
    AOT_PACK_UNROLL
    for (d = 0; d < n; d++) {
        const int32_t p = x[d];
        const int32_t q = x[d + x_step];
        int32_t wv = w[0];
        a0 += (int64_t)p * wv;
        a2 += (int64_t)q * wv;
        wv = w[1];
        a1 += (int64_t)p * wv;
        a3 += (int64_t)q * wv;
        w += 2;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* bias[oc + r] (0 without bias) plus sum[r], requantized into out[r] for r < rows (1..4, the channels the group
 * really has). */
AOT_INLINE_BODY void aot_pack_requant_sums(const int32_t* sum, int32_t rows, const int32_t* bias, int8_t* out,
                                           int32_t oc, int32_t requant, const int32_t* out_multiplier,
                                           const int32_t* out_second, int32_t quant_step, int32_t output_offset,
                                           int32_t act_min, int32_t act_max)
{
    int32_t r;
    for (r = 0; r < rows; r++) {
        const int32_t acc = sum[r] + (bias != 0 ? bias[oc + r] : 0);
        out[r] = aot_requant_s8(acc, requant, out_multiplier[(oc + r) * quant_step], out_second[(oc + r) * quant_step],
                                output_offset, act_min, act_max);
    }
}

/* The same from the group's two packed accumulators a[0], a[1]. */
AOT_INLINE_BODY void aot_pack_requant4(const int64_t* a, int32_t rows, const int32_t* bias, int8_t* out, int32_t oc,
                                       int32_t requant, const int32_t* out_multiplier, const int32_t* out_second,
                                       int32_t quant_step, int32_t output_offset, int32_t act_min, int32_t act_max)
{
    int32_t s[4];
    aot_pack_split(a[0], &s[0], &s[1]);
    aot_pack_split(a[1], &s[2], &s[3]);
    aot_pack_requant_sums(s, rows, bias, out, oc, requant, out_multiplier, out_second, quant_step, output_offset,
                          act_min, act_max);
}

#endif /* AOT_KERNELS_DOT_PACKED_S8_INLINE_H_ */
