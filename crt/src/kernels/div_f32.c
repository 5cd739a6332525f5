/* float32 element-wise division with broadcasting (IEEE semantics: x/0 is inf or NaN). */
#include "aot_sched.h"

#include "aot/kernels/div.h"
#include "aot/kernels/binary.h"

void aot_div_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max)
{
    aot_binary_f32(AOT_BINARY_DIV, in1, in2, output, dims, in1_strides, in2_strides, act_min, act_max);
}
