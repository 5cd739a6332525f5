/* TFLite's general quantized ADD / SUB with up to 4-D broadcasting, shared by the int8 and int16 kernels
 * (add_s8.c, sub_s8.c, add_s16.c, sub_s16.c): each input is offset, shifted left (20 bits for int8, 15 for int16,
 * so the int32 sum cannot overflow), rescaled to twice the larger input scale with a Q0.31 multiplier, the two are
 * added (subtracted) and the result requantized to the output, offset and clamped.  The walker takes the element
 * size as a constant of each kernel, so the loads and stores fold to the kernel's type.  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_ADD_GENERAL_H_
#define AOT_SRC_KERNELS_ADD_GENERAL_H_

#include <stdint.h>

#include "aot/requant.h"

struct aot_add_general {
    int32_t in1_offset, in1_multiplier, in1_shift;
    int32_t in2_offset, in2_multiplier, in2_shift;
    int32_t left_shift, out_multiplier, out_shift, output_offset, act_min, act_max;
};

static inline int32_t aot_add_general_elem(int32_t x1, int32_t x2, const struct aot_add_general* p, int subtract)
{
    const int32_t a = aot_multiply_by_quantized_multiplier((x1 + p->in1_offset) * (1 << p->left_shift),
                                                           p->in1_multiplier, p->in1_shift);
    const int32_t b = aot_multiply_by_quantized_multiplier((x2 + p->in2_offset) * (1 << p->left_shift),
                                                           p->in2_multiplier, p->in2_shift);
    int32_t v = aot_multiply_by_quantized_multiplier(subtract ? a - b : a + b, p->out_multiplier, p->out_shift) +
                p->output_offset;
    v = v < p->act_min ? p->act_min : v;
    return v > p->act_max ? p->act_max : v;
}

static inline int32_t aot_add_general_load(const void* data, int32_t index, int32_t size)
{
    return size == 1 ? (int32_t)((const int8_t*)data)[index] : (int32_t)((const int16_t*)data)[index];
}

/* dims: output shape (4-D); strides: each input's element stride per output dimension (0 = broadcast). */
static inline void aot_add_general_walk(const void* in1, const void* in2, void* output, int32_t size,
                                        const int32_t* dims, const int32_t* in1_strides, const int32_t* in2_strides,
                                        const struct aot_add_general* p, int subtract)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int32_t base1 = i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int32_t base2 = i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    const int32_t v =
                        aot_add_general_elem(aot_add_general_load(in1, base1 + i3 * in1_strides[3], size),
                                             aot_add_general_load(in2, base2 + i3 * in2_strides[3], size), p, subtract);
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

/* The walk with the layer's parameters as the kernels' entry points receive them (add_s8/s16, sub_s8/s16). */
static inline void aot_add_general_run(const void* in1, const void* in2, void* output, int32_t size,
                                       const int32_t* dims, const int32_t* in1_strides, const int32_t* in2_strides,
                                       int32_t in1_offset, int32_t in1_multiplier, int32_t in1_shift,
                                       int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift,
                                       int32_t left_shift, int32_t out_multiplier, int32_t out_shift,
                                       int32_t output_offset, int32_t act_min, int32_t act_max, int subtract)
{
    struct aot_add_general p;
    p.in1_offset = in1_offset;
    p.in1_multiplier = in1_multiplier;
    p.in1_shift = in1_shift;
    p.in2_offset = in2_offset;
    p.in2_multiplier = in2_multiplier;
    p.in2_shift = in2_shift;
    p.left_shift = left_shift;
    p.out_multiplier = out_multiplier;
    p.out_shift = out_shift;
    p.output_offset = output_offset;
    p.act_min = act_min;
    p.act_max = act_max;
    aot_add_general_walk(in1, in2, output, size, dims, in1_strides, in2_strides, &p, subtract);
}

#endif
