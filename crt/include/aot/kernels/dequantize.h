/* DEQUANTIZE: int8 -> float32, x = scale * (q - zero_point).
 *
 * TFLite evaluates the product in wider precision and rounds it to float
 * once; (q - zero_point) has at most 9 significant bits, so a single float
 * multiply is already the correctly rounded value and gives the same bits.  */
#ifndef AOT_KERNELS_DEQUANTIZE_H_
#define AOT_KERNELS_DEQUANTIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_dequantize_s8_f32(const int8_t* input, float* output, int32_t size, float scale,
                           int32_t zero_point);

#ifdef __cplusplus
}
#endif

#endif
