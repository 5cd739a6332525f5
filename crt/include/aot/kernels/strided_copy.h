/* Copies up to 6-D strided views element by element: TRANSPOSE and STRIDED_SLICE.
 *
 * out_dims[6] is the output shape (left-padded with 1s); in_strides[6] gives, per output dimension, the step in
 * input elements (negative for reversed slices) and in_start the input element of output element 0.  The
 * output is written densely in row-major order.  elem_size is 1, 2 or 4 bytes (any dtype: data only moves). */
#ifndef AOT_KERNELS_STRIDED_COPY_H_
#define AOT_KERNELS_STRIDED_COPY_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_strided_copy(const void* input, void* output, int32_t elem_size, const int32_t* out_dims,
                      const int32_t* in_strides, int32_t in_start);

#ifdef __cplusplus
}
#endif

#endif
