/* CUMSUM (float32) along one axis, the data seen as [outer, axis_size, inner]: running sums in axis order, or from
 * the end (reverse); exclusive writes the sum before adding the element (TFLite Micro's reference order).  */
#ifndef AOT_KERNELS_CUMSUM_H_
#define AOT_KERNELS_CUMSUM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_cumsum_f32(const float* input, float* output, int32_t outer, int32_t axis_size, int32_t inner,
                    int32_t exclusive, int32_t reverse);

#ifdef __cplusplus
}
#endif

#endif
