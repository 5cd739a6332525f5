/* int8 / int16 MAXIMUM and MINIMUM with broadcasting (aot/kernels/binary.h): TFLite Micro compares the stored
 * values, whatever the tensors' quantization, so these do too. */
#include "aot_sched.h"

#include "aot/kernels/binary.h"

#define AOT_MINMAX(suffix, T)                                                                                          \
    void aot_minmax_##suffix(int32_t op, const T* in1, const T* in2, T* output, const int32_t* dims,                   \
                             const int32_t* in1_strides, const int32_t* in2_strides)                                   \
    {                                                                                                                  \
        int32_t i0, i1, i2, i3;                                                                                        \
        int32_t o = 0;                                                                                                 \
        const int max = op == AOT_BINARY_MAX;                                                                          \
        for (i0 = 0; i0 < dims[0]; i0++) {                                                                             \
            for (i1 = 0; i1 < dims[1]; i1++) {                                                                         \
                for (i2 = 0; i2 < dims[2]; i2++) {                                                                     \
                    const T* a = in1 + i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];                \
                    const T* b = in2 + i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];                \
                    for (i3 = 0; i3 < dims[3]; i3++) {                                                                 \
                        const T x = a[i3 * in1_strides[3]];                                                            \
                        const T y = b[i3 * in2_strides[3]];                                                            \
                        output[o++] = (max ? x > y : x < y) ? x : y;                                                   \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }

AOT_MINMAX(s8, int8_t)
AOT_MINMAX(s16, int16_t)
