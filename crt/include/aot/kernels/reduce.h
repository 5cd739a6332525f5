/* SUM (float32), REDUCE_MAX and REDUCE_MIN (float32, int8, int16) over any subset of up to 4 dimensions, laid out
 * as for MEAN (aot/kernels/mean.h): in_dims is the input shape padded to 4-D, reduced[d] is 1 for every reduced
 * dimension. float32 sums in input order as TFLite Micro does; the quantized max/min compare stored values (input
 * and output share one quantization, as TFLite Micro requires).  */
#ifndef AOT_KERNELS_REDUCE_H_
#define AOT_KERNELS_REDUCE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_sum_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_max_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_min_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced);
/* REDUCE_PROD (float32 only): the product in input order. */
void aot_reduce_prod_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_max_s8(const int8_t* input, int8_t* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_min_s8(const int8_t* input, int8_t* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_max_s16(const int16_t* input, int16_t* output, const int32_t* in_dims, const int32_t* reduced);
/* REDUCE_ALL on bool (uint8_t 0 / 1). */
void aot_reduce_all_bool(const uint8_t* input, uint8_t* output, const int32_t* in_dims, const int32_t* reduced);
void aot_reduce_min_s16(const int16_t* input, int16_t* output, const int32_t* in_dims, const int32_t* reduced);

#ifdef __cplusplus
}
#endif

#endif
