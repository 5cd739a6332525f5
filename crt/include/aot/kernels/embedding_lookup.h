/* EMBEDDING_LOOKUP: output row i is row ids[i] of the value table (rows x row_bytes), copied; the hybrid form
 * dequantizes int8 rows to float32 (value * scale, zero point 0) as TFLite Micro does. An id outside
 * [0, rows) returns AOT_ERR_KERNEL (TFLite Micro fails the invocation the same way).  */
#ifndef AOT_KERNELS_EMBEDDING_LOOKUP_H_
#define AOT_KERNELS_EMBEDDING_LOOKUP_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int32_t aot_embedding_lookup(const int32_t* ids, int32_t num_ids, const void* value, int32_t rows, int32_t row_bytes,
                             void* output);
int32_t aot_embedding_lookup_s8_f32(const int32_t* ids, int32_t num_ids, const int8_t* value, int32_t rows,
                                    int32_t columns, float scale, float* output);

#ifdef __cplusplus
}
#endif

#endif
