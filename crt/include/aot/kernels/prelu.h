/* float32 PRELU: x >= 0 ? x : alpha * x, alpha broadcast to the input (4-D conventions of aot/kernels/add.h,
 * in1 = input, in2 = alpha). */
#ifndef AOT_KERNELS_PRELU_H_
#define AOT_KERNELS_PRELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_prelu_f32(const float* in1, const float* in2, float* output, const int32_t* dims,
                   const int32_t* in1_strides, const int32_t* in2_strides);

#ifdef __cplusplus
}
#endif

#endif
