/* Comparisons and logic with broadcasting (aot/kernels/compare.h). */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/compare.h"
#include "aot/requant.h"
#include "broadcast2.h"

static uint8_t aot_cmp(int32_t op, int32_t lt, int32_t eq)
{
    switch (op) {
    case AOT_CMP_EQ:
        return (uint8_t)eq;
    case AOT_CMP_NE:
        return (uint8_t)!eq;
    case AOT_CMP_LT:
        return (uint8_t)lt;
    case AOT_CMP_LE:
        return (uint8_t)(lt || eq);
    case AOT_CMP_GT:
        return (uint8_t)(!lt && !eq);
    default:
        return (uint8_t)!lt;
    }
}

#define AOT_COMPARE(suffix, T)                                                                                         \
    void aot_compare_##suffix(int32_t op, const T* in1, const T* in2, uint8_t* output, const int32_t* dims,            \
                              const int32_t* in1_strides, const int32_t* in2_strides)                                  \
    {                                                                                                                  \
        AOT_BROADCAST_2(dims, in1_strides, in2_strides, output[o] = aot_cmp(op, in1[a] < in2[b], in1[a] == in2[b]));   \
    }

AOT_COMPARE(f32, float)
AOT_COMPARE(s32, int32_t)
AOT_COMPARE(s16, int16_t)
AOT_COMPARE(bool, uint8_t)

static int32_t aot_cmp_scaled(int32_t v, int32_t offset, int32_t multiplier, int32_t shift)
{
    return aot_multiply_by_quantized_multiplier((v + offset) * 256, multiplier, shift);
}

void aot_compare_s8(int32_t op, const int8_t* in1, const int8_t* in2, uint8_t* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides, const struct aot_compare_s8_params* p)
{
    if (!p->rescale) {
        AOT_BROADCAST_2(dims, in1_strides, in2_strides, output[o] = aot_cmp(op, in1[a] < in2[b], in1[a] == in2[b]));
        return;
    }
    AOT_BROADCAST_2(dims, in1_strides, in2_strides, {
        const int32_t x = aot_cmp_scaled(in1[a], p->offset1, p->multiplier1, p->shift1);
        const int32_t y = aot_cmp_scaled(in2[b], p->offset2, p->multiplier2, p->shift2);
        output[o] = aot_cmp(op, x < y, x == y);
    });
}

void aot_logical_bool(int32_t op, const uint8_t* in1, const uint8_t* in2, uint8_t* output, const int32_t* dims,
                      const int32_t* in1_strides, const int32_t* in2_strides)
{
    if (op == AOT_LOGICAL_AND) {
        AOT_BROADCAST_2(dims, in1_strides, in2_strides, output[o] = (uint8_t)(in1[a] && in2[b]));
    } else {
        AOT_BROADCAST_2(dims, in1_strides, in2_strides, output[o] = (uint8_t)(in1[a] || in2[b]));
    }
}

void aot_logical_not_bool(const uint8_t* input, uint8_t* output, int32_t size)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (uint8_t)!input[i];
    }
}

void aot_select(const uint8_t* cond, const void* x, const void* y, void* output, int32_t elem_size, const int32_t* dims,
                const int32_t* cond_strides, const int32_t* x_strides, const int32_t* y_strides)
{
    const uint8_t* xb = (const uint8_t*)x;
    const uint8_t* yb = (const uint8_t*)y;
    uint8_t* ob = (uint8_t*)output;
    const size_t n = (size_t)elem_size;
    int32_t i0, i1, i2, i3, o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                for (i3 = 0; i3 < dims[3]; i3++) {
                    const int32_t c =
                        i0 * cond_strides[0] + i1 * cond_strides[1] + i2 * cond_strides[2] + i3 * cond_strides[3];
                    const int32_t xi = i0 * x_strides[0] + i1 * x_strides[1] + i2 * x_strides[2] + i3 * x_strides[3];
                    const int32_t yi = i0 * y_strides[0] + i1 * y_strides[1] + i2 * y_strides[2] + i3 * y_strides[3];
                    memcpy(ob + (size_t)o * n, cond[c] ? xb + (size_t)xi * n : yb + (size_t)yi * n, n);
                    o++;
                }
            }
        }
    }
}
