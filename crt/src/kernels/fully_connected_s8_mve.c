/* int8 fully connected layer for cores with Helium (MVE), with a portable fallback: the GEMM of mve_s8.h with
 * the batch rows as its pixels (two at a time), read straight from the input (no scratch).
 * Weights in the layout of mve_s8.h, input zero point folded into `bias` by the compiler; per output row (or one for
 * all when multiplier_stride is 0) a multiplier and a TFLite shift (every value TFLite allows).
 */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/fully_connected.h"
/* Rows in pairs (batch >= 2) are rare in a fully connected layer: 8 channel blocks per call keep the frame that every
 * such layer carries 256 B smaller (mve_s8.h; a unity build that included the header before keeps its count). */
#ifndef AOT_MVE_BLOCKS
#define AOT_MVE_BLOCKS 8
#endif
#include "mve_s8.h"

void aot_fully_connected_s8_mve(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                const int32_t* bias, int8_t* output, int32_t out_depth, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                int32_t act_min, int32_t act_max)
{
    struct aot_mve_rq rq;
    /* Every shift a right shift: a single row takes the block loops of aot_mve_gemv (mve_s8.h).  Pairs of rows keep
     * the general requantization (their code once, not twice). */
    const int right = multiplier_stride ? aot_mve_all_right(out_shift, out_multiplier, out_depth)
                                        : out_shift[0] < 0 || out_multiplier[0] == 0;
    int32_t b;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = multiplier_stride;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = NULL;
    for (b = 0; b + 2 <= batches; b += 2) {
        const int8_t* x0 = input + b * accum_depth;
        aot_mve_gemm(x0, x0 + accum_depth, filter, accum_depth, out_depth, &rq, output + b * out_depth,
                     output + (b + 1) * out_depth, 0, 0, 1, 0, 0, 0);
    }
    if (b < batches) {
        const int8_t* x0 = input + b * accum_depth;
        aot_mve_gemm(x0, x0, filter, accum_depth, out_depth, &rq, output + b * out_depth, output + b * out_depth, 0, 0,
                     0, 0, right, 0);
    }
}
