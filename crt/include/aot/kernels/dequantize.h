/* DEQUANTIZE: int8 / uint8 / int16 -> float32, x = scale * (q - zero_point).
 *
 * TFLite evaluates the product in double and rounds it to float once;
 * (q - zero_point) has at most 17 significant bits and the float scale 24, so
 * the double product is exact and a single float multiply (the exact product
 * rounded once) gives the same bits.  */
#ifndef AOT_KERNELS_DEQUANTIZE_H_
#define AOT_KERNELS_DEQUANTIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_dequantize_s8_f32(const int8_t* input, float* output, int32_t size, float scale, int32_t zero_point);

void aot_dequantize_u8_f32(const uint8_t* input, float* output, int32_t size, float scale, int32_t zero_point);

void aot_dequantize_s16_f32(const int16_t* input, float* output, int32_t size, float scale, int32_t zero_point);

#ifdef __cplusplus
}
#endif

#endif
