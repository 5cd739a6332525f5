/* The int8 fully connected body (weights [out_depth][accum_depth]), shared by the CRT kernel
 * aot_fully_connected_s8 and the shape-specialized functions generated for Cortex-M0/M3 (see
 * aot/kernels/requant_s8_inline.h).
 *
 * output[b][o] = requant(bias[o] + sum_d filter[o][d] * (input[b][d] + input_offset)); the generated code folds
 * the input zero point into the bias and passes input_offset = 0.  Four output rows are computed together
 * (aot/kernels/dot_s8_inline.h).  Requantization parameters are read at o * quant_step
 * (0: one set for every row).  bias may be NULL (EXACT requantization only).
 */
#ifndef AOT_KERNELS_FULLY_CONNECTED_S8_INLINE_H_
#define AOT_KERNELS_FULLY_CONNECTED_S8_INLINE_H_

#include <stdint.h>
#include <stddef.h>

#include "aot/kernels/dot_s8_inline.h"

AOT_INLINE_BODY void aot_fully_connected_s8_body(const int8_t* input, int32_t batches, int32_t accum_depth,
                                                 const int8_t* filter, const int32_t* bias, int8_t* output,
                                                 int32_t out_depth, int32_t input_offset, int32_t output_offset,
                                                 int32_t requant, const int32_t* out_multiplier,
                                                 const int32_t* out_second, int32_t quant_step, int32_t act_min,
                                                 int32_t act_max)
{
    const int32_t rows4 = out_depth & ~3;
    int32_t b, o, r;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * accum_depth;
        int8_t* out_b = output + b * out_depth;
        for (o = 0; o < rows4; o += 4) {
            int32_t acc[4];
            for (r = 0; r < 4; r++) {
                acc[r] = bias != NULL ? bias[o + r] : 0;
            }
            aot_dot4_s8(in_b, filter + o * accum_depth, accum_depth, accum_depth, input_offset, acc);
            aot_requant_rows_s8(acc, 4, out_b + o, o, requant, out_multiplier, out_second, quant_step, output_offset,
                                act_min, act_max);
        }
        for (o = rows4; o < out_depth; o++) {
            const int32_t acc =
                aot_dot1_s8(in_b, filter + o * accum_depth, accum_depth, input_offset, bias != NULL ? bias[o] : 0);
            aot_requant_rows_s8(&acc, 1, out_b + o, o, requant, out_multiplier, out_second, quant_step, output_offset,
                                act_min, act_max);
        }
    }
}

#endif /* AOT_KERNELS_FULLY_CONNECTED_S8_INLINE_H_ */
