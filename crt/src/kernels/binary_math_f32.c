/* float32 FLOOR_DIV / FLOOR_MOD / POW with broadcasting (TFLite's builtins, ONNX Pow): the binary operations that
 * need libm, in their own entry point so that float arithmetic alone does not link it. */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/binary.h"

#define AOT_BINARY_F32_NAME aot_binary_math_f32
#define AOT_BINARY_F32_ROW  aot_binary_math_row
#include "binary_f32_body.h"

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

static void aot_binary_math_row(int32_t op, const float* a, int32_t sa, const float* b, int32_t sb, float* out,
                                int32_t n, float act_min, float act_max)
{
    int32_t i;
    switch (op) {
    case AOT_BINARY_FLOOR_DIV:
        AOT_BINARY_ROW(aot_floor_div(x, y));
        break;
    case AOT_BINARY_FLOOR_MOD:
        AOT_BINARY_ROW(aot_floor_mod(x, y));
        break;
    default:
        AOT_BINARY_ROW(powf(x, y));
        break;
    }
}
