/* float32 HARD_SIGMOID: max(0, min(1, alpha * x + beta)) (ONNX HardSigmoid). */
#ifndef AOT_KERNELS_HARD_SIGMOID_H_
#define AOT_KERNELS_HARD_SIGMOID_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_hard_sigmoid_f32(const float* input, float* output, int32_t size, float alpha, float beta);

#ifdef __cplusplus
}
#endif

#endif
