/* LOGISTIC (sigmoid).
 *
 * int8 follows TFLite Micro's reference kernel: the input (minus its zero
 * point) is rescaled to Q4.27 with a compile-time multiplier/left shift,
 * inputs at or beyond +-input_range_radius saturate, the rest go through
 * gemmlowp's fixed-point logistic; the output has scale 1/256, zero point
 * -128.  float32 uses 1 / (1 + exp(-x)) with the reference's cut-offs.  */
#ifndef AOT_KERNELS_LOGISTIC_H_
#define AOT_KERNELS_LOGISTIC_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_logistic_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                     int32_t input_range_radius, int32_t input_multiplier, int32_t input_left_shift);

/* int16 (Q0.15 output) by interpolation in the sigmoid table; multiplier/shift from the compiler. */
void aot_logistic_s16(const int16_t* input, int16_t* output, int32_t size, int32_t multiplier, int32_t shift);

void aot_logistic_f32(const float* input, float* output, int32_t size);

#ifdef __cplusplus
}
#endif

#endif
