/* Softmax over the innermost dimension.
 *
 * int8: gemmlowp fixed-point exp/reciprocal (TFLite reference semantics);
 * input_multiplier/input_left_shift/diff_min are computed at compile time from
 * beta and the input scale.  Output is int8 with scale 1/256, zero point -128,
 * or (aot_softmax_s8_s16) int16 with scale 1/65536, zero point -32768.
 *
 * int16 (16x8 models): TFLite's table scheme (crt/src/kernels/softmax_s16.c); the multiplier and shift rescale
 * beta * input_scale to the exp table's range, and the two 513-entry tables (exp over [-10, 0], 1 / (1 + x) over
 * [0, 1]) come from the compiler.  Output scale 1/32768, zero point 0.  */
#ifndef AOT_KERNELS_SOFTMAX_H_
#define AOT_KERNELS_SOFTMAX_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_softmax_s8(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                    int32_t input_left_shift, int32_t diff_min, int8_t* output);

void aot_softmax_s8_s16(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                        int32_t input_left_shift, int32_t diff_min, int16_t* output);
void aot_softmax_s16(const int16_t* input, int32_t outer, int32_t depth, int32_t input_multiplier, int32_t input_shift,
                     const int16_t* exp_lut, const int16_t* recip_lut, int16_t* output);
void aot_softmax_f32(const float* input, int32_t outer, int32_t depth, float beta, float* output);

#ifdef __cplusplus
}
#endif

#endif
