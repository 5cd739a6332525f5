/* BROADCAST_ARGS: the broadcast shape of two int32 shape vectors, aligned from the right (a size-1 dimension takes
 * the other's size); incompatible shapes return AOT_ERR_KERNEL, as TFLite Micro's invocation fails.  */
#ifndef AOT_KERNELS_BROADCAST_ARGS_H_
#define AOT_KERNELS_BROADCAST_ARGS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int32_t aot_broadcast_args(const int32_t* a, int32_t na, const int32_t* b, int32_t nb, int32_t* output, int32_t n_out);

#ifdef __cplusplus
}
#endif

#endif
