/* ONNX Pow with integer operands, onnxruntime's results (aot/kernels/pow_int.h). */
#include "aot_sched.h"

#include "aot/kernels/pow_int.h"

#include <math.h>

/* uint32 -> int32 without implementation-defined conversions. */
static int32_t pow_wrap_s32(uint32_t u)
{
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

static int32_t pow_s32(int32_t x, int32_t y)
{
    const int32_t odd = y % 2 != 0;
    uint32_t mag, limit, r = 1u;
    int32_t i;

    if (y < 0) {
        /* |x| >= 2 gives a fraction (truncated to 0); 0 gives infinity. */
        if (x == 0) {
            return INT32_MIN;
        }
        if (x == 1 || x == -1) {
            return x == -1 && odd ? -1 : 1;
        }
        return 0;
    }
    mag = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    if (mag <= 1u) {
        return y == 0 ? 1 : (x == -1 && !odd ? 1 : x);
    }
    /* The result's magnitude may reach 2^31 only when it is negative. */
    limit = x < 0 && odd ? 0x80000000u : 0x7FFFFFFFu;
    /* mag >= 2 overflows within 31 steps, so the loop is short whatever y is. */
    for (i = 0; i < y; i++) {
        if (r > limit / mag) {
            return INT32_MIN;
        }
        r *= mag;
    }
    return x < 0 && odd ? pow_wrap_s32(0u - r) : (int32_t)r;
}

/* x * x (e == 2) or x * x * x (e == 3), wrapping: onnxruntime's shortcut for a one-element exponent. */
static int32_t square_or_cube_s32(int32_t x, int32_t e)
{
    const uint32_t sq = (uint32_t)x * (uint32_t)x;
    return pow_wrap_s32(e == 2 ? sq : sq * (uint32_t)x);
}

/* Integer POW goes through double pow, as onnxruntime computes it: an int32 result needs the 53-bit mantissa (a float
 * holds integers exactly only up to 2^24), so double is needed for the same bits. */
static int32_t double_to_s32(double r)
{
    /* Out of range or NaN (the comparisons fail): what x86-64's truncating conversion gives. */
    if (!(r > -2147483649.0 && r < 2147483648.0)) {
        return INT32_MIN;
    }
    return (int32_t)r;
}

/* The 4-D broadcast walk of aot/kernels/binary.h: element index of each input for output element o. */
#define AOT_POW_WALK(BODY)                                                                                             \
    do {                                                                                                               \
        int32_t i0, i1, i2, i3, o = 0;                                                                                 \
        for (i0 = 0; i0 < dims[0]; i0++) {                                                                             \
            for (i1 = 0; i1 < dims[1]; i1++) {                                                                         \
                for (i2 = 0; i2 < dims[2]; i2++) {                                                                     \
                    const int32_t ja = i0 * base_strides[0] + i1 * base_strides[1] + i2 * base_strides[2];             \
                    const int32_t jb = i0 * exponent_strides[0] + i1 * exponent_strides[1] + i2 * exponent_strides[2]; \
                    for (i3 = 0; i3 < dims[3]; i3++) {                                                                 \
                        const int32_t a = ja + i3 * base_strides[3];                                                   \
                        const int32_t b = jb + i3 * exponent_strides[3];                                               \
                        BODY;                                                                                          \
                        o++;                                                                                           \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

void aot_pow_s32(const int32_t* base, const int32_t* exponent, int32_t* output, const int32_t* dims,
                 const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent)
{
    if (single_exponent && (exponent[0] == 2 || exponent[0] == 3)) {
        const int32_t e = exponent[0];
        AOT_POW_WALK(output[o] = square_or_cube_s32(base[a], e); (void)b);
        return;
    }
    AOT_POW_WALK(output[o] = pow_s32(base[a], exponent[b]));
}

void aot_pow_s32_f32(const int32_t* base, const float* exponent, int32_t* output, const int32_t* dims,
                     const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent)
{
    if (single_exponent && (exponent[0] == 2.0f || exponent[0] == 3.0f)) {
        const int32_t e = exponent[0] == 2.0f ? 2 : 3;
        AOT_POW_WALK(output[o] = square_or_cube_s32(base[a], e); (void)b);
        return;
    }
    AOT_POW_WALK(output[o] = double_to_s32(pow((double)base[a], (double)exponent[b])));
}

/* A float base and an int32 exponent in double, then rounded once to float, as onnxruntime's Pow computes it (C++'s
 * std::pow of a float and an integer is the double overload): powf of the converted exponent can differ in the last
 * bit (and converts exponents beyond 2^24 inexactly), so double is kept for the same results. */
void aot_pow_f32_s32(const float* base, const int32_t* exponent, float* output, const int32_t* dims,
                     const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent)
{
    if (single_exponent && (exponent[0] == 2 || exponent[0] == 3)) {
        const int32_t e = exponent[0];
        AOT_POW_WALK(output[o] = e == 2 ? base[a] * base[a] : base[a] * base[a] * base[a]; (void)b);
        return;
    }
    AOT_POW_WALK(output[o] = (float)pow((double)base[a], (double)exponent[b]));
}
