/* float32 element-wise binary operations with broadcasting: the one loop behind ADD / SUB / MUL / DIV / PRELU /
 * MAXIMUM / MINIMUM / FLOOR_DIV / FLOOR_MOD / POW. */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/binary.h"

const float aot_f32_infinities[2] = {INFINITY, -INFINITY};

/* In double, as TFLite's FLOOR_DIV (std::floor of the double quotient): the float quotient can round up to the next
 * integer (2.9999999 to 3.0f), whose floor differs, so double is needed for the same bits. */
static float aot_floor_div(float x, float y)
{
    return (float)floor((double)x / (double)y);
}

/* The remainder with the divisor's sign (TFLite's FLOOR_MOD). */
static float aot_floor_mod(float x, float y)
{
    const float r = fmodf(x, y);
    return (r != 0.0f && ((y < 0.0f) != (r < 0.0f))) ? r + y : r;
}

/* One innermost row: the operation is chosen once per row, not per element (each case then breaks). */
#define AOT_BINARY_ROW(EXPR)                                                                                           \
    for (i3 = 0; i3 < n3; i3++) {                                                                                      \
        const float x = a[i3 * sa];                                                                                    \
        const float y = b[i3 * sb];                                                                                    \
        float v = (EXPR);                                                                                              \
        v = v < act_min ? act_min : v;                                                                                 \
        v = v > act_max ? act_max : v;                                                                                 \
        out[i3] = v;                                                                                                   \
    }

void aot_binary_f32(int32_t op, const float* in1, const float* in2, float* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides, float act_min, float act_max)
{
    const int32_t n3 = dims[3];
    const int32_t sa = in1_strides[3];
    const int32_t sb = in2_strides[3];
    int32_t i0, i1, i2, i3;
    float* out = output;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const float* a = in1 + i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const float* b = in2 + i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                switch (op) {
                case AOT_BINARY_ADD:
                    AOT_BINARY_ROW(x + y);
                    break;
                case AOT_BINARY_SUB:
                    AOT_BINARY_ROW(x - y);
                    break;
                case AOT_BINARY_MUL:
                    AOT_BINARY_ROW(x * y);
                    break;
                case AOT_BINARY_DIV:
                    AOT_BINARY_ROW(x / y);
                    break;
                case AOT_BINARY_PRELU:
                    AOT_BINARY_ROW(x >= 0.0f ? x : x * y);
                    break;
                case AOT_BINARY_MIN:
                    AOT_BINARY_ROW(x < y ? x : y);
                    break;
                case AOT_BINARY_FLOOR_DIV:
                    AOT_BINARY_ROW(aot_floor_div(x, y));
                    break;
                case AOT_BINARY_FLOOR_MOD:
                    AOT_BINARY_ROW(aot_floor_mod(x, y));
                    break;
                case AOT_BINARY_POW:
                    AOT_BINARY_ROW(powf(x, y));
                    break;
                default:
                    AOT_BINARY_ROW(x > y ? x : y);
                    break;
                }
                out += n3;
            }
        }
    }
}
