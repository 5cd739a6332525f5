/* QUANTIZE: float32 -> int8 and int8 -> int8 (requantization).
 *
 * float32 -> int8 follows TFLite's AffineQuantize: q = round(x / scale) + zp
 * with the division and rounding (half away from zero) done in float, then
 * saturated to int8.  int8 -> int8 subtracts the input zero point, rescales
 * with a compile-time multiplier/shift for s_in / s_out and adds the output
 * zero point, saturating.  */
#ifndef AOT_KERNELS_QUANTIZE_H_
#define AOT_KERNELS_QUANTIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_quantize_f32_s8(const float* input, int8_t* output, int32_t size, float scale,
                         int32_t zero_point);

void aot_requantize_s8(const int8_t* input, int8_t* output, int32_t size,
                       int32_t input_zero_point, int32_t multiplier, int32_t shift,
                       int32_t output_zero_point);

#ifdef __cplusplus
}
#endif

#endif
