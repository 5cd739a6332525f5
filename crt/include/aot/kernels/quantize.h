/* QUANTIZE: float32 -> int8 / int16 and integer -> integer (requantization).
 *
 * float32 -> intN follows TFLite's AffineQuantize: q = round(x / scale) + zp
 * with the division and rounding (half away from zero) done in float, then
 * saturated to the output type.  Integer -> integer (int8, int16, int32 in the
 * pairs TFLite Micro accepts) subtracts the input zero point, rescales with a
 * compile-time multiplier/shift for s_in / s_out and adds the output zero
 * point, saturating.  aot_requantize_<in>_<out>: s8 int8, s16 int16, s32 int32. */
#ifndef AOT_KERNELS_QUANTIZE_H_
#define AOT_KERNELS_QUANTIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_quantize_f32_s8(const float* input, int8_t* output, int32_t size, float scale, int32_t zero_point);

void aot_requantize_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                       int32_t shift, int32_t output_zero_point);

void aot_quantize_f32_s16(const float* input, int16_t* output, int32_t size, float scale, int32_t zero_point);

void aot_requantize_s16_s8(const int16_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                           int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s8_s16(const int8_t* input, int16_t* output, int32_t size, int32_t input_zero_point,
                           int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s16_s16(const int16_t* input, int16_t* output, int32_t size, int32_t input_zero_point,
                            int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s16_s32(const int16_t* input, int32_t* output, int32_t size, int32_t input_zero_point,
                            int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s32_s16(const int32_t* input, int16_t* output, int32_t size, int32_t input_zero_point,
                            int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s8_s32(const int8_t* input, int32_t* output, int32_t size, int32_t input_zero_point,
                           int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s32_s8(const int32_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                           int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_u8_s8(const uint8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                          int32_t multiplier, int32_t shift, int32_t output_zero_point);
void aot_requantize_s8_u8(const int8_t* input, uint8_t* output, int32_t size, int32_t input_zero_point,
                          int32_t multiplier, int32_t shift, int32_t output_zero_point);

#ifdef __cplusplus
}
#endif

#endif
