/* float32 PRELU with a broadcast slope tensor. */
#include "aot_sched.h"

#include <float.h>

#include "aot/kernels/binary.h"
#include "aot/kernels/prelu.h"

void aot_prelu_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                   const int32_t* in2_strides)
{
    aot_binary_f32(AOT_BINARY_PRELU, in1, in2, output, dims, in1_strides, in2_strides, -FLT_MAX, FLT_MAX);
}
