/* CONCATENATION as strided byte copies, one call per input tensor.
 *
 * With the tensors viewed as [outer, axis * inner], input i contributes
 * `chunk_bytes` to every one of the `outer` output rows (`row_bytes` long),
 * starting `offset_bytes` into each row.  Works for any element type: int8
 * inputs are only concatenated when they share the output's quantization
 * (TFLite Micro rejects anything else), so no rescaling is needed.  */
#ifndef AOT_KERNELS_CONCATENATION_H_
#define AOT_KERNELS_CONCATENATION_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_concatenation_copy(void* output, const void* input, int32_t outer, int32_t chunk_bytes, int32_t row_bytes,
                            int32_t offset_bytes);

#ifdef __cplusplus
}
#endif

#endif
