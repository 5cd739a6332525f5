/* GATHER along one axis with constant indices: the input viewed as [outer, axis_size, inner], the output as
 * [outer, num_indices, inner]; indices are already in 0..axis_size-1 (normalised at compile time). */
#ifndef AOT_KERNELS_GATHER_H_
#define AOT_KERNELS_GATHER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_gather(const void* input, void* output, int32_t elem_size, int32_t outer, int32_t axis_size, int32_t inner,
                const int32_t* indices, int32_t num_indices);

#ifdef __cplusplus
}
#endif

#endif
