/* CLAMP: min(max(x, lo), hi) element-wise (ONNX Clip).  int8 clamps stored values, so input and output share
 * their quantization and lo/hi are already quantized; float NaN passes through. */
#ifndef AOT_KERNELS_CLAMP_H_
#define AOT_KERNELS_CLAMP_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_clamp_f32(const float* input, float* output, int32_t size, float lo, float hi);

void aot_clamp_s8(const int8_t* input, int8_t* output, int32_t size, int32_t lo, int32_t hi);

#ifdef __cplusplus
}
#endif

#endif
