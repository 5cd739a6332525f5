/* int16 element-wise multiply with broadcasting (16x8 models, zero points 0): TFLite's reference arithmetic
 * (mul_general.h). */
#include "aot_sched.h"

#include "aot/kernels/mul.h"
#include "mul_general.h"

void aot_mul_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset, int32_t in2_offset,
                 int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max)
{
    struct aot_mul_general p;
    p.in1_offset = in1_offset;
    p.in2_offset = in2_offset;
    p.out_multiplier = out_multiplier;
    p.out_shift = out_shift;
    p.output_offset = output_offset;
    p.act_min = act_min;
    p.act_max = act_max;
    aot_mul_general_walk(in1, in2, output, 2, dims, in1_strides, in2_strides, &p);
}
