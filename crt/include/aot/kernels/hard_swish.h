/* HARD_SWISH: x * relu6(x + 3) / 6.
 *
 * int8 reproduces TFLite's 16-bit fixed-point reference kernel: the input is
 * moved to a 2^7 finer "hires" scale, a saturated "relu-ish" factor in
 * [0, 1] is derived with one multiplier/exponent pair and multiplied with
 * the input rescaled by a second pair; both pairs are Q0.15 multipliers
 * (int16 range, passed as int32) computed at compile time the way TFLite
 * Micro's Prepare does, in float.  */
#ifndef AOT_KERNELS_HARD_SWISH_H_
#define AOT_KERNELS_HARD_SWISH_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_hard_swish_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                       int32_t output_zero_point, int32_t reluish_multiplier, int32_t reluish_exponent,
                       int32_t output_multiplier, int32_t output_exponent);

void aot_hard_swish_f32(const float* input, float* output, int32_t size);

#ifdef __cplusplus
}
#endif

#endif
