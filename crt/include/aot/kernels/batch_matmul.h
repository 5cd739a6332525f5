/* float32 BATCH_MATMUL: out[b] = a[b] (m x k) * b[b] (k x n), row-major; a_batch_stride / b_batch_stride are
 * the element steps between batches (0 broadcasts one matrix to every batch). */
#ifndef AOT_KERNELS_BATCH_MATMUL_H_
#define AOT_KERNELS_BATCH_MATMUL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_batch_matmul_f32(const float* a, const float* b, float* output, int32_t batches, int32_t m,
                          int32_t k, int32_t n, int32_t a_batch_stride, int32_t b_batch_stride);

#ifdef __cplusplus
}
#endif

#endif
