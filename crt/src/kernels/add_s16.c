/* int16 element-wise addition with broadcasting, 16x8 models (left shift 15): TFLite's general two-stage
 * rescale (add_general.h). */
#include "aot_sched.h"

#include "aot/kernels/add.h"
#include "add_general.h"

void aot_add_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset, int32_t in1_multiplier,
                 int32_t in1_shift, int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                 int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max)
{
    aot_add_general_run(in1, in2, output, 2, dims, in1_strides, in2_strides, in1_offset, in1_multiplier, in1_shift,
                        in2_offset, in2_multiplier, in2_shift, left_shift, out_multiplier, out_shift, output_offset,
                        act_min, act_max, 0);
}
