/* The int8 fully connected body on packed weights (two output rows per 32-bit word, aot/kernels/
 * dot_packed_s8_inline.h), used by the shape-specialized functions generated for Cortex-M0/M3 where the compiler
 * packs the layer (compiler/ops/common/packed.py); the others keep aot/kernels/fully_connected_s8_inline.h.
 *
 * Same arithmetic as aot_fully_connected_s8_body with the input zero point folded into the bias.  Rows go four at a
 * time (a group; the weights of the last one zero-padded), each input value loaded once per group for two SMLAL.
 * The packed sums are split every `chunk` inputs (a literal: the whole depth where the compiler proves the sums
 * fit the lanes, else at most AOT_PACK_SAFE_RUN), so any depth is exact.
 */
#ifndef AOT_KERNELS_FULLY_CONNECTED_S8_PACKED_INLINE_H_
#define AOT_KERNELS_FULLY_CONNECTED_S8_PACKED_INLINE_H_

#include <stdint.h>

#include "aot/kernels/dot_packed_s8_inline.h"

/* The tap loop: at -Os two taps per pass (aot_pdot4_s8_tap2: a layer's loop is inlined into each layer). */
#if defined(AOT_PACK_ASM) && defined(__OPTIMIZE_SIZE__)
#define AOT_FC_PDOT4 aot_pdot4_s8_tap2
#else
#define AOT_FC_PDOT4 aot_pdot4_s8
#endif

/* filter: ceil(out_depth / 4) groups of 2 * accum_depth words. */
AOT_INLINE_BODY void aot_fully_connected_s8_packed_body(const int8_t* input, int32_t batches, int32_t accum_depth,
                                                        const int32_t* filter, const int32_t* bias, int8_t* output,
                                                        int32_t out_depth, int32_t chunk, int32_t output_offset,
                                                        int32_t requant, const int32_t* out_multiplier,
                                                        const int32_t* out_second, int32_t quant_step, int32_t act_min,
                                                        int32_t act_max)
{
    int32_t b, o, d;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * accum_depth;
        int8_t* out_b = output + b * out_depth;
        for (o = 0; o < out_depth; o += 4) {
            const int32_t* w = filter + o / 4 * 2 * accum_depth;
            const int32_t rows = out_depth - o < 4 ? out_depth - o : 4;
            if (chunk >= accum_depth) {
                int64_t a[2] = {AOT_PACK_BIAS, AOT_PACK_BIAS};
                AOT_FC_PDOT4(in_b, w, accum_depth, a);
                aot_pack_requant4(a, rows, bias, out_b + o, o, requant, out_multiplier, out_second, quant_step,
                                  output_offset, act_min, act_max);
            } else {
                int32_t s[4] = {0, 0, 0, 0};
                for (d = 0; d < accum_depth; d += chunk) {
                    const int32_t n = accum_depth - d < chunk ? accum_depth - d : chunk;
                    int64_t a[2] = {AOT_PACK_BIAS, AOT_PACK_BIAS};
                    int32_t lo, hi;
                    AOT_FC_PDOT4(in_b + d, w + 2 * d, n, a);
                    aot_pack_split(a[0], &lo, &hi);
                    s[0] += lo;
                    s[1] += hi;
                    aot_pack_split(a[1], &lo, &hi);
                    s[2] += lo;
                    s[3] += hi;
                }
                aot_pack_requant_sums(s, rows, bias, out_b + o, o, requant, out_multiplier, out_second, quant_step,
                                      output_offset, act_min, act_max);
            }
        }
    }
}

#endif /* AOT_KERNELS_FULLY_CONNECTED_S8_PACKED_INLINE_H_ */
