/* Plain byte copy used when a reshape cannot alias (model input/output buffers).  */
#ifndef AOT_KERNELS_COPY_H_
#define AOT_KERNELS_COPY_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_copy(void* dst, const void* src, int32_t bytes);

/* ZEROS_LIKE: every byte 0 (0.0f, integer 0; a quantized output stores 0, as TFLite Micro does). */
void aot_zero(void* dst, int32_t bytes);

#ifdef __cplusplus
}
#endif

#endif
