/* TFLite's quantized MUL with up to 4-D broadcasting, shared by the int8 and int16 kernels (mul_s8.c, mul_s16.c):
 * both inputs offset by their zero points, multiplied in int32 (|a * b| <= 2^30 for int16, whose zero points are
 * 0; 255 * 255 for int8), requantized once, offset and clamped.  The element size is a constant of each kernel,
 * so the loads and stores fold to its type.  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_MUL_GENERAL_H_
#define AOT_SRC_KERNELS_MUL_GENERAL_H_

#include <stdint.h>

#include "aot/requant.h"

struct aot_mul_general {
    int32_t in1_offset, in2_offset, out_multiplier, out_shift, output_offset, act_min, act_max;
};

static inline int32_t aot_mul_general_load(const void* data, int32_t index, int32_t size)
{
    return size == 1 ? (int32_t)((const int8_t*)data)[index] : (int32_t)((const int16_t*)data)[index];
}

/* dims: output shape (4-D); strides: each input's element stride per output dimension (0 = broadcast). */
static inline void aot_mul_general_walk(const void* in1, const void* in2, void* output, int32_t size,
                                        const int32_t* dims, const int32_t* in1_strides, const int32_t* in2_strides,
                                        const struct aot_mul_general* p)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int32_t base1 = i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int32_t base2 = i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    const int32_t a = aot_mul_general_load(in1, base1 + i3 * in1_strides[3], size) + p->in1_offset;
                    const int32_t b = aot_mul_general_load(in2, base2 + i3 * in2_strides[3], size) + p->in2_offset;
                    int32_t v =
                        aot_multiply_by_quantized_multiplier(a * b, p->out_multiplier, p->out_shift) + p->output_offset;
                    v = v < p->act_min ? p->act_min : v;
                    v = v > p->act_max ? p->act_max : v;
                    if (size == 1) {
                        ((int8_t*)output)[o] = (int8_t)v;
                    } else {
                        ((int16_t*)output)[o] = (int16_t)v;
                    }
                    o++;
                }
            }
        }
    }
}

#endif
