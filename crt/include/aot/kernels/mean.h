/* MEAN over any subset of up to 4 dimensions.
 *
 * in_dims is the input shape left-padded to 4-D with 1s and reduced[d] is 1
 * for every reduced dimension; the output is the input with those
 * dimensions collapsed to 1, in row-major order (keep_dims only changes the
 * declared shape, not the layout).
 *
 * int8 follows TFLite's integer QuantizedMeanOrSum: the zero-point-corrected
 * sum is requantized once with a multiplier that already contains
 * s_in / (s_out * count), computed at compile time.  float32 sums in input
 * order and divides by the count, like the reference kernel.  */
#ifndef AOT_KERNELS_MEAN_H_
#define AOT_KERNELS_MEAN_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_mean_s8(const int8_t* input, int8_t* output, const int32_t* in_dims, const int32_t* reduced,
                 int32_t input_offset, int32_t multiplier, int32_t shift, int32_t output_offset);

void aot_mean_s16(const int16_t* input, int16_t* output, const int32_t* in_dims, const int32_t* reduced,
                  int32_t input_offset, int32_t multiplier, int32_t shift, int32_t output_offset);

void aot_mean_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced);

#ifdef __cplusplus
}
#endif

#endif
