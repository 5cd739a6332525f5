/* float32 element-wise unary math (aot/kernels/unary.h): one loop per operator over a C library function. */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/unary.h"

/* Half to even, as TFLite's ROUND: floor, then up when above half or at half with an odd floor. */
static float aot_round_half_even(float x)
{
    const float f = floorf(x);
    const float d = x - f;
    if (d < 0.5f || (d == 0.5f && fmodf(f, 2.0f) == 0.0f)) {
        return f;
    }
    return f + 1.0f;
}

static float aot_neg(float x)
{
    return -x;
}
static float aot_rsqrt(float x)
{
    return 1.0f / sqrtf(x);
}
static float aot_square(float x)
{
    return x * x;
}
static float aot_elu(float x)
{
    return x < 0.0f ? expf(x) - 1.0f : x;
}
static float aot_softplus(float x)
{
    return x > 20.0f ? x : log1pf(expf(x));
}

#define AOT_UNARY_F32(name, fn)                                                                                        \
    void aot_##name##_f32(const float* input, float* output, int32_t size)                                             \
    {                                                                                                                  \
        int32_t i;                                                                                                     \
        for (i = 0; i < size; i++) {                                                                                   \
            output[i] = fn(input[i]);                                                                                  \
        }                                                                                                              \
    }

AOT_UNARY_F32(abs, fabsf)
AOT_UNARY_F32(neg, aot_neg)
AOT_UNARY_F32(sqrt, sqrtf)
AOT_UNARY_F32(rsqrt, aot_rsqrt)
AOT_UNARY_F32(exp, expf)
AOT_UNARY_F32(log, logf)
AOT_UNARY_F32(square, aot_square)
AOT_UNARY_F32(sin, sinf)
AOT_UNARY_F32(cos, cosf)
AOT_UNARY_F32(floor, floorf)
AOT_UNARY_F32(ceil, ceilf)
AOT_UNARY_F32(round, aot_round_half_even)
AOT_UNARY_F32(elu, aot_elu)
AOT_UNARY_F32(erf, erff)
AOT_UNARY_F32(softplus, aot_softplus)
