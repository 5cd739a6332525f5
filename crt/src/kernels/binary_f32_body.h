/* The 4-D broadcasting walk of the float32 binary kernels, written once for binary_f32.c (ADD / SUB / MUL / DIV /
 * PRELU / MINIMUM / MAXIMUM) and binary_math_f32.c (FLOOR_DIV / FLOOR_MOD / POW). They are two entry points so
 * that a model with float ADD or MUL links neither libm's floor / fmodf / powf nor double division.
 *
 * A kernel file defines AOT_BINARY_F32_NAME (the public function) and AOT_BINARY_F32_ROW (the name of its static
 * row function, defined after this include), then includes this body. The walk calls the row function once per
 * innermost row, so the operation is chosen once per row, not per element. Internal to the CRT. */

#include <stdint.h>

#ifndef AOT_BINARY_ROW
/* One innermost row of EXPR over x (from a) and y (from b), clamped to [act_min, act_max]. */
#define AOT_BINARY_ROW(EXPR)                                                                                           \
    for (i = 0; i < n; i++) {                                                                                          \
        const float x = a[i * sa];                                                                                     \
        const float y = b[i * sb];                                                                                     \
        float v = (EXPR);                                                                                              \
        v = v < act_min ? act_min : v;                                                                                 \
        v = v > act_max ? act_max : v;                                                                                 \
        out[i] = v;                                                                                                    \
    }
#endif

static void AOT_BINARY_F32_ROW(int32_t op, const float* a, int32_t sa, const float* b, int32_t sb, float* out,
                               int32_t n, float act_min, float act_max);

void AOT_BINARY_F32_NAME(int32_t op, const float* in1, const float* in2, float* output, const int32_t* dims,
                         const int32_t* in1_strides, const int32_t* in2_strides, float act_min, float act_max)
{
    const int32_t n3 = dims[3];
    int32_t i0, i1, i2;
    float* out = output;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const float* a = in1 + i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const float* b = in2 + i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                AOT_BINARY_F32_ROW(op, a, in1_strides[3], b, in2_strides[3], out, n3, act_min, act_max);
                out += n3;
            }
        }
    }
}

#undef AOT_BINARY_F32_NAME
#undef AOT_BINARY_F32_ROW
