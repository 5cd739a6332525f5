/* LEAKY_RELU: float32 x >= 0 ? x : alpha * x; int8 / int16 with TFLite's two requantizations.
 *
 * Quantized params[6]: input zero point, identity multiplier and shift (s_in / s_out), alpha multiplier and shift
 * (s_in * alpha / s_out, signed like alpha), output zero point; all computed at compile time. */
#ifndef AOT_KERNELS_LEAKY_RELU_H_
#define AOT_KERNELS_LEAKY_RELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_leaky_relu_f32(const float* input, float* output, int32_t size, float alpha);
void aot_leaky_relu_s8(const int8_t* input, int8_t* output, int32_t size, const int32_t* params);
void aot_leaky_relu_s16(const int16_t* input, int16_t* output, int32_t size, const int32_t* params);

#ifdef __cplusplus
}
#endif

#endif
