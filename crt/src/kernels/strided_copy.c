/* Dense copy of a strided view (TRANSPOSE, STRIDED_SLICE): one pass over the output in row-major order. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/strided_copy.h"

void aot_strided_copy(const void* input, void* output, int32_t elem_size, const int32_t* out_dims,
                      const int32_t* in_strides, int32_t in_start)
{
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    int32_t i0, i1, i2, i3, i4, i5;
    int32_t o = 0;
    for (i0 = 0; i0 < out_dims[0]; i0++) {
        const int32_t b0 = in_start + i0 * in_strides[0];
        for (i1 = 0; i1 < out_dims[1]; i1++) {
            const int32_t b1 = b0 + i1 * in_strides[1];
            for (i2 = 0; i2 < out_dims[2]; i2++) {
                const int32_t b2 = b1 + i2 * in_strides[2];
                for (i3 = 0; i3 < out_dims[3]; i3++) {
                    const int32_t b3 = b2 + i3 * in_strides[3];
                    for (i4 = 0; i4 < out_dims[4]; i4++) {
                        const int32_t b4 = b3 + i4 * in_strides[4];
                        for (i5 = 0; i5 < out_dims[5]; i5++) {
                            const int32_t e = b4 + i5 * in_strides[5];
                            /* memcpy of a small constant-ish size: no alignment assumptions on the buffers. */
                            memcpy(out + (size_t)o * (size_t)elem_size, in + (size_t)e * (size_t)elem_size,
                                   (size_t)elem_size);
                            o++;
                        }
                    }
                }
            }
        }
    }
}
