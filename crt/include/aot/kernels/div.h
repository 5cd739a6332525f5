/* float32 element-wise division (in1 / in2) with up to 4-D broadcasting; conventions as aot/kernels/add.h. */
#ifndef AOT_KERNELS_DIV_H_
#define AOT_KERNELS_DIV_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_div_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
