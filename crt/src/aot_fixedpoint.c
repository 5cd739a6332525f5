/* gemmlowp-compatible fixed-point arithmetic on raw int32 values.
 *
 * Written from the published semantics of gemmlowp's FixedPoint<int32_t, N>
 * so the int8 softmax/logistic/tanh kernels round exactly like TFLite Micro's
 * reference kernels.  Constants are round(f * 2^(31 - integer_bits)).
 */
#include "kernels/aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/requant.h"

int32_t aot_fp_mul(int32_t a, int32_t b)
{
    /* With a zero shift the requant helper is exactly SRDHM. */
    return aot_multiply_by_quantized_multiplier(a, b, 0);
}

int32_t aot_fp_rounding_divide_by_pot(int32_t x, int32_t exponent)
{
    int32_t mask;
    int32_t remainder;
    int32_t threshold;
    if (exponent <= 0) {
        return x;
    }
    mask = (int32_t)(((uint32_t)1 << exponent) - 1u);
    remainder = x & mask;
    threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t aot_fp_saturating_rounding_mul_by_pot(int32_t x, int32_t exponent)
{
    if (exponent > 0) {
        const int32_t threshold = (int32_t)(((uint32_t)1 << (31 - exponent)) - 1u);
        if (x > threshold) {
            return INT32_MAX;
        }
        if (x < -threshold) {
            return INT32_MIN;
        }
        return (int32_t)((uint32_t)x << exponent);
    }
    return aot_fp_rounding_divide_by_pot(x, -exponent);
}

int32_t aot_fp_rounding_half_sum(int32_t a, int32_t b)
{
    /* s = a + b = 2*h + low exactly, with h = floor(a/2) + floor(b/2). */
    const int32_t h = (a >> 1) + (b >> 1);
    const int32_t low = (a & 1) + (b & 1);
    if (h >= 0) {
        return h + (low >= 1 ? 1 : 0);
    }
    return h + (low == 2 ? 1 : 0);
}

int32_t aot_fp_count_leading_zeros(uint32_t x)
{
    int32_t n = 0;
    if (x == 0u) {
        return 32;
    }
    while ((x & 0x80000000u) == 0u) {
        x <<= 1;
        n++;
    }
    return n;
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out (4th order Taylor around -1/8). */
static int32_t aot_fp_exp_quarter_interval(int32_t a)
{
    const int32_t constant_term = 1895147668;    /* exp(-1/8) */
    const int32_t constant_1_over_3 = 715827883; /* 1/3 */
    const int32_t x = a + (1 << 28);             /* a + 1/8 */
    const int32_t x2 = aot_fp_mul(x, x);
    const int32_t x3 = aot_fp_mul(x2, x);
    const int32_t x4 = aot_fp_mul(x2, x2);
    const int32_t x4_over_4 = aot_fp_rounding_divide_by_pot(x4, 2);
    const int32_t poly = aot_fp_rounding_divide_by_pot(aot_fp_mul(x4_over_4 + x3, constant_1_over_3) + x2, 1);
    return constant_term + aot_fp_mul(constant_term, x + poly);
}

int32_t aot_fp_exp_on_negative_values(int32_t a, int32_t integer_bits)
{
    /* exp(-2^k) in Q0.31 for k = -2 .. 4, applied for each set bit of -a. */
    static const int32_t multipliers[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
    const int32_t fractional_bits = 31 - integer_bits;
    const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
    const int32_t mask = one_quarter - 1;
    const int32_t a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter;
    const int32_t remainder = a_mod_quarter_minus_one_quarter - a;
    int32_t result = aot_fp_exp_quarter_interval(
        aot_fp_saturating_rounding_mul_by_pot(a_mod_quarter_minus_one_quarter, integer_bits));
    int32_t exponent;

    for (exponent = -2; exponent <= 4; exponent++) {
        if (integer_bits > exponent) {
            const int32_t bit = fractional_bits + exponent;
            if ((remainder & ((int32_t)1 << bit)) != 0) {
                result = aot_fp_mul(result, multipliers[exponent + 2]);
            }
        }
    }
    if (integer_bits > 5) {
        /* Below -32 the result underflows to zero. */
        const int32_t clamp = -((int32_t)1 << (36 - integer_bits));
        if (a < clamp) {
            result = 0;
        }
    }
    if (a == 0) {
        result = INT32_MAX;
    }
    return result;
}

int32_t aot_fp_one_over_one_plus_x(int32_t a)
{
    /* Newton-Raphson on the half denominator, in Q2.29. */
    const int32_t half_denominator = aot_fp_rounding_half_sum(a, INT32_MAX);
    const int32_t constant_48_over_17 = 1515870810;
    const int32_t constant_neg_32_over_17 = -1010580540;
    int32_t x = constant_48_over_17 + aot_fp_mul(half_denominator, constant_neg_32_over_17);
    int32_t i;
    for (i = 0; i < 3; i++) {
        const int32_t half_denominator_times_x = aot_fp_mul(half_denominator, x);
        const int32_t one_minus = ((int32_t)1 << 29) - half_denominator_times_x;
        x = x + aot_fp_saturating_rounding_mul_by_pot(aot_fp_mul(x, one_minus), 2);
    }
    /* x / 2 reinterpreted as Q1.30, then rescaled to Q0.31. */
    return aot_fp_saturating_rounding_mul_by_pot(x, 1);
}

int32_t aot_fp_reciprocal(int32_t x, int32_t x_integer_bits, int32_t* num_bits_over_unit)
{
    const int32_t headroom_plus_one = aot_fp_count_leading_zeros((uint32_t)x);
    const int32_t shifted_minus_one = (int32_t)(((uint32_t)x << headroom_plus_one) - ((uint32_t)1 << 31));
    *num_bits_over_unit = x_integer_bits - headroom_plus_one;
    return aot_fp_one_over_one_plus_x(shifted_minus_one);
}
