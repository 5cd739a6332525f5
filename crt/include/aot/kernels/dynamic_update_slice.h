/* DYNAMIC_UPDATE_SLICE: the output is the operand with the update written over it at the start indices, each start
 * first clamped into [0, dims[d] - update_dims[d]] (TFLite Micro's rule, so an out-of-range start never writes out
 * of bounds).  Data only moves: elem_size is 1, 2 or 4 bytes (any element type).  The output may be the operand's
 * own buffer (updated in place); the start indices are constant parameters or the run-time int32 tensor.  */
#ifndef AOT_KERNELS_DYNAMIC_UPDATE_SLICE_H_
#define AOT_KERNELS_DYNAMIC_UPDATE_SLICE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Up to AOT_DUS_MAX_RANK dimensions (TFLite Micro's own limit). */
#define AOT_DUS_MAX_RANK 6

void aot_dynamic_update_slice(const void* operand, const void* update, void* output, int32_t elem_size, int32_t rank,
                              const int32_t* dims, const int32_t* update_dims, const int32_t* starts);

#ifdef __cplusplus
}
#endif

#endif
