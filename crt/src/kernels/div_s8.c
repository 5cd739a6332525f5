/* int8 element-wise division with up to 4-D broadcasting (aot/kernels/div.h), TFLite Micro's quantized arithmetic
 * as its x86-64 build computes it, including the parts the C++ source leaves undefined:
 *  - the Newton-Raphson reciprocal of the divisor (offset by its zero point) wraps around on int32 overflow, which
 *    only happens for a zero divisor (its result is then finite and of the opposite sign, not saturated);
 *  - the final rounding right shift of quotient * multiplier can reach 32 to 63 bits for small quotients: there
 *    the mask of the rounding term becomes all ones and the shift count is taken modulo 32, so the result is
 *    (x >> (exponent mod 32)) + (x >= 0).  The compiler refuses scales that could need a shift outside 0..63.
 * Every step is written with defined C arithmetic (wrap-around through uint32_t) so the kernel is the same on
 * every core and clean under UBSan. */
#include "aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/kernels/div.h"

/* uint32 -> int32 without an implementation-defined conversion. */
static int32_t aot_div_s32(uint32_t u)
{
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

static int32_t aot_div_wrap_add(int32_t a, int32_t b)
{
    return aot_div_s32((uint32_t)a + (uint32_t)b);
}

/* 1 / (1 + a) for a in Q0.31 (a = -1 for a zero divisor), Q0.31 result: three Newton-Raphson steps in Q2.29 from
 * 48/17 - 32/17 * d, with the int32 additions wrapping as they do in the reference build. */
static int32_t aot_div_one_over_one_plus_x(int32_t a)
{
    const int32_t half_denominator = aot_fp_rounding_half_sum(a, INT32_MAX);
    int32_t x = aot_div_wrap_add(1515870810, aot_fp_mul(half_denominator, -1010580540));
    int32_t i;
    for (i = 0; i < 3; i++) {
        const int32_t one_minus = aot_div_s32(((uint32_t)1 << 29) - (uint32_t)aot_fp_mul(half_denominator, x));
        x = aot_div_wrap_add(x, aot_fp_saturating_rounding_mul_by_pot(aot_fp_mul(x, one_minus), 2));
    }
    return aot_fp_saturating_rounding_mul_by_pot(x, 1);
}

/* Number of redundant sign bits (31 for 0 and -1). */
static int32_t aot_div_leading_sign_bits(int32_t x)
{
    const uint32_t u = x < 0 ? ~(uint32_t)x : (uint32_t)x;
    return aot_fp_count_leading_zeros(u) - 1;
}

/* RoundingDivideByPOT for exponents 0..63 as the reference build evaluates it (see the file comment). */
static int32_t aot_div_rounding_shift(int32_t x, int32_t exponent)
{
    if (exponent >= 32) {
        return (x >> (exponent - 32)) + (x >= 0 ? 1 : 0);
    }
    return aot_fp_rounding_divide_by_pot(x, exponent);
}

static int8_t aot_div_element(int32_t a, int32_t b, const struct aot_div_s8_params* p)
{
    int32_t headroom_plus_one, recip_shift, reciprocal, headroom, quotient, result;
    if (b < 0) {
        a = -a;
        b = -b;
    }
    /* The divisor as Q0.31 in [1, 2) minus one; a zero divisor shifts nothing and gives -1. */
    headroom_plus_one = aot_fp_count_leading_zeros((uint32_t)b);
    recip_shift = 31 - headroom_plus_one;
    reciprocal =
        aot_div_one_over_one_plus_x(aot_div_s32(((uint32_t)b << (headroom_plus_one & 31)) - ((uint32_t)1 << 31)));
    headroom = aot_div_leading_sign_bits(a);
    quotient = aot_fp_mul(aot_div_s32((uint32_t)a << headroom), reciprocal);
    result = p->output_zero_point +
             aot_div_rounding_shift(aot_fp_mul(quotient, p->multiplier), headroom + recip_shift - p->shift);
    result = result < p->act_min ? p->act_min : result;
    return (int8_t)(result > p->act_max ? p->act_max : result);
}

void aot_div_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims, const int32_t* in1_strides,
                const int32_t* in2_strides, const struct aot_div_s8_params* params)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int8_t* a = in1 + i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int8_t* b = in2 + i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    output[o++] = aot_div_element((int32_t)a[i3 * in1_strides[3]] - params->input1_zero_point,
                                                  (int32_t)b[i3 * in2_strides[3]] - params->input2_zero_point, params);
                }
            }
        }
    }
}
