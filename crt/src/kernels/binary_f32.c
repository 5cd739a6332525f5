/* float32 element-wise binary arithmetic with broadcasting: ADD / SUB / MUL / DIV / PRELU / MINIMUM / MAXIMUM.
 * FLOOR_DIV / FLOOR_MOD / POW are binary_math_f32.c's (they need libm). */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/binary.h"

#define AOT_BINARY_F32_NAME aot_binary_f32
#define AOT_BINARY_F32_ROW  aot_binary_arith_row
#include "binary_f32_body.h"

const float aot_f32_infinities[2] = {INFINITY, -INFINITY};

static void aot_binary_arith_row(int32_t op, const float* a, int32_t sa, const float* b, int32_t sb, float* out,
                                 int32_t n, float act_min, float act_max)
{
    int32_t i;
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
    default:
        AOT_BINARY_ROW(x > y ? x : y);
        break;
    }
}
