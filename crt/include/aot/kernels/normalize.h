/* float32 row-wise normalizations over the last dimension (rows x depth), TFLite Micro's reference arithmetic:
 * LOG_SOFTMAX: x - max - log(sum(exp(x - max)));
 * L2_NORMALIZATION: x / max(sqrt(sum(x * x)), 1e-6).  */
#ifndef AOT_KERNELS_NORMALIZE_H_
#define AOT_KERNELS_NORMALIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_log_softmax_f32(const float* input, float* output, int32_t rows, int32_t depth);
void aot_l2_normalization_f32(const float* input, float* output, int32_t rows, int32_t depth);

#ifdef __cplusplus
}
#endif

#endif
