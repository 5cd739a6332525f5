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

#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE_SIZE__)
/* -Os: the channels aot_mve_gemv leaves (out_depth % 4, or every channel when K is neither a multiple of 16 nor below
 * 16) one at a time, a predicated VMLADAVA per 16 taps in the layout of mve_s8.h (within a block of 4 channels the
 * K % 16 tail bytes of each channel first, then 16-byte chunks of the 4 channels in turn; past the blocks each
 * channel's K weights), the requantization scalar (aot_multiply_by_quantized_multiplier, the reference's own).  In
 * place of aot_mve_gemm's per-block C path: 0.8 KB less at -Os on the Cortex-M55 for a few hundred instructions on a
 * classifier's last channels (ResNet-8's 10 classes: 2 of them). */
__attribute__((noinline)) static int8_t aot_fc_row_channel(const int8_t* x, const int8_t* filter, int32_t k,
                                                           int32_t out_c, int32_t c, const struct aot_mve_rq* rq)
{
    const int32_t blocks = out_c >> 2;
    const int32_t full = k & ~15;
    const int8_t* chunk;
    const int8_t* tail;
    int32_t stride, acc = 0, j, v;
    const int32_t q = rq->per_channel ? c : 0;
    if (c < 4 * blocks) {
        const int8_t* block = filter + (c >> 2) * 4 * k;
        chunk = block + 4 * (k - full) + (c & 3) * 16;
        tail = block + (c & 3) * (k - full);
        stride = 64;
    } else {
        chunk = filter + 4 * blocks * k + (c - 4 * blocks) * k;
        tail = chunk + full;
        stride = 16;
    }
    for (j = 0; j < full; j += 16) {
        acc = vmladavaq_s8(acc, vldrbq_s8(x + j), vldrbq_s8(chunk));
        chunk += stride;
    }
    if (k > full) {
        const mve_pred16_t p = vctp8q((uint32_t)(k - full));
        acc = vmladavaq_p_s8(acc, vldrbq_z_s8(x + full, p), vldrbq_z_s8(tail, p), p);
    }
    v = aot_multiply_by_quantized_multiplier(acc + rq->bias[c], rq->multiplier[q], rq->shift[q]) + rq->out_offset;
    v = v < rq->act_min ? rq->act_min : v;
    v = v > rq->act_max ? rq->act_max : v;
    return (int8_t)v;
}
#endif

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
#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE_SIZE__)
        int8_t* out = output + b * out_depth;
        int32_t c = 0;
        if ((accum_depth & 15) == 0 || accum_depth < 16) {
            c = aot_mve_gemv(x0, filter, accum_depth, out_depth, &rq, out);
        }
        for (; c < out_depth; c++) {
            out[c] = aot_fc_row_channel(x0, filter, accum_depth, out_depth, c, &rq);
        }
#else
        aot_mve_gemm(x0, x0, filter, accum_depth, out_depth, &rq, output + b * out_depth, output + b * out_depth, 0, 0,
                     0, 0, 1, 0);
#endif
    }
}
