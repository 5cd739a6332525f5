/* Reference int8 fully connected layer (weights [out_depth][accum_depth]): the shared body of
 * aot/kernels/fully_connected_s8_inline.h with run-time shapes and TFLite's requantization. */
#include "aot_sched.h"

#include "aot/kernels/fully_connected.h"
#include "aot/kernels/fully_connected_s8_inline.h"

void aot_fully_connected_s8(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                            const int32_t* bias, int8_t* output, int32_t out_depth, int32_t input_offset,
                            int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                            int32_t multiplier_stride, int32_t act_min, int32_t act_max)
{
    aot_fully_connected_s8_body(input, batches, accum_depth, filter, bias, output, out_depth, input_offset,
                                output_offset, AOT_REQUANT_EXACT, out_multiplier, out_shift, multiplier_stride, act_min,
                                act_max);
}
