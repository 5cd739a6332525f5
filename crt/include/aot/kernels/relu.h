/* RELU and RELU6.
 *
 * int8 RELU follows TFLite Micro: (q - input_zero_point) is requantized to
 * the output scale with a compile-time multiplier/shift, offset by the
 * output zero point and clamped to [act_min, act_max] (the quantized 0..inf
 * range).  int8 RELU6 is a clamp in the input's own quantization to
 * [lower, upper] = [zero point, quantized 6], which is what TFLite Micro
 * does; the compiler only accepts it when input and output share their
 * quantization, so the clamp is also the exact result.  int16 (16x8 models,
 * zero points 0) is the same with the int16 range.  */
#ifndef AOT_KERNELS_RELU_H_
#define AOT_KERNELS_RELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_relu_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                 int32_t shift, int32_t output_zero_point, int32_t act_min, int32_t act_max);

void aot_relu6_s8(const int8_t* input, int8_t* output, int32_t size, int32_t lower, int32_t upper);

void aot_relu_s16(const int16_t* input, int16_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                  int32_t shift, int32_t output_zero_point, int32_t act_min, int32_t act_max);
void aot_relu6_s16(const int16_t* input, int16_t* output, int32_t size, int32_t lower, int32_t upper);
void aot_relu_f32(const float* input, float* output, int32_t size);

void aot_relu6_f32(const float* input, float* output, int32_t size);

#ifdef __cplusplus
}
#endif

#endif
