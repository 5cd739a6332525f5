/* float32 LEAKY_RELU: x >= 0 ? x : alpha * x. */
#ifndef AOT_KERNELS_LEAKY_RELU_H_
#define AOT_KERNELS_LEAKY_RELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_leaky_relu_f32(const float* input, float* output, int32_t size, float alpha);

#ifdef __cplusplus
}
#endif

#endif
