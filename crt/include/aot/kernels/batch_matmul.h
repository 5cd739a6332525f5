/* BATCH_MATMUL (float32, int8, int16): out[b] = a[b] (m x k) * b[b] (k x n), row-major; a_batch_stride / b_batch_stride
 * are the element steps between batches (0 broadcasts one matrix to every batch). */
#ifndef AOT_KERNELS_BATCH_MATMUL_H_
#define AOT_KERNELS_BATCH_MATMUL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_batch_matmul_f32(const float* a, const float* b, float* output, int32_t batches, int32_t m, int32_t k,
                          int32_t n, int32_t a_batch_stride, int32_t b_batch_stride);

/* int8: each operand less its zero point (offsets are the negated zero points), summed in int32, requantized with
 * one quantized multiplier, plus the output zero point, saturated (TFLite Micro's reference). */
void aot_batch_matmul_s8(const int8_t* a, const int8_t* b, int8_t* output, int32_t batches, int32_t m, int32_t k,
                         int32_t n, int32_t a_batch_stride, int32_t b_batch_stride, int32_t a_offset, int32_t b_offset,
                         int32_t multiplier, int32_t shift, int32_t output_offset);

/* int16 (zero points 0): summed in 64 bits and requantized as TFLite's 64-bit MultiplyByQuantizedMultiplier does:
 * (acc * reduced_multiplier + 2^(total_shift - 1)) >> total_shift with a 16-bit multiplier. */
void aot_batch_matmul_s16(const int16_t* a, const int16_t* b, int16_t* output, int32_t batches, int32_t m, int32_t k,
                          int32_t n, int32_t a_batch_stride, int32_t b_batch_stride, int32_t reduced_multiplier,
                          int32_t total_shift);

#ifdef __cplusplus
}
#endif

#endif
