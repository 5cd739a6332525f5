/* int8 fully connected layer for cores with Helium (MVE), with a portable fallback: the entry point
 * aot_fully_connected_s8_mve_row (aot/kernels/fully_connected.h) for layers whose shifts are all right shifts (or
 * multipliers 0), each batch row on its own through the block loops of aot_mve_gemv (mve_s8.h).  The compiler calls it
 * for such layers of one batch row (a classifier's usual form), so their images do not link the general
 * requantization and the row pairs of aot_fully_connected_s8_mve (fully_connected_s8_mve.c: 2.5 KB on the Cortex-M55
 * at -O2 that such an image linked with it, the whole object linking without -ffunction-sections).
 */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/fully_connected.h"
/* As in fully_connected_s8_mve.c (the frame of the row pairs, which this unit has not, is what the count sizes). */
#ifndef AOT_MVE_BLOCKS
#define AOT_MVE_BLOCKS 8
#endif
#include "mve_s8.h"

void aot_fully_connected_s8_mve_row(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                    const int32_t* bias, int8_t* output, int32_t out_depth, int32_t output_offset,
                                    const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                    int32_t act_min, int32_t act_max)
{
    struct aot_mve_rq rq;
    int32_t b;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = multiplier_stride;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = NULL;
    for (b = 0; b < batches; b++) {
        const int8_t* x0 = input + b * accum_depth;
        aot_mve_gemm(x0, x0, filter, accum_depth, out_depth, &rq, output + b * out_depth, output + b * out_depth, 0, 0,
                     0, 0, 1, 0);
    }
}
