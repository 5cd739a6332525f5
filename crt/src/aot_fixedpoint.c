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

/* (1 - x) / (1 + x) for x in [0, 1), Q0.31 in and out. */
static int32_t aot_fp_one_minus_x_over_one_plus_x(int32_t a)
{
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
    /* x approximates 1/half_denominator in Q2.29; result = x - 1 in Q0.31. */
    return aot_fp_saturating_rounding_mul_by_pot(x - ((int32_t)1 << 29), 2);
}

int32_t aot_fp_logistic(int32_t a, int32_t integer_bits)
{
    /* logistic(|a|) = 1 / (1 + exp(-|a|)); negative inputs use 1 - logistic(|a|)
     * where "1" is the Q0.31 value INT32_MAX, exactly as gemmlowp does. */
    int32_t positive;
    if (a == 0) {
        return (int32_t)1 << 30; /* exactly 1/2 */
    }
    positive = aot_fp_one_over_one_plus_x(aot_fp_exp_on_negative_values(a > 0 ? -a : a, integer_bits));
    return a > 0 ? positive : INT32_MAX - positive;
}

int32_t aot_fp_tanh(int32_t a, int32_t integer_bits)
{
    /* tanh(|a|) = (1 - exp(-2|a|)) / (1 + exp(-2|a|)).  Doubling is done by
     * reinterpreting the raw value with one more integer bit (exact). */
    const int32_t n = a < 0 ? a : -a;
    int32_t t;
    if (a == 0) {
        return 0;
    }
    t = aot_fp_one_minus_x_over_one_plus_x(aot_fp_exp_on_negative_values(n, integer_bits + 1));
    return a < 0 ? -t : t;
}

/* Wrap-around int32 addition (gemmlowp's raw FixedPoint addition, overflow included) without undefined behaviour. */
static int32_t aot_fp_from_u32(uint32_t u)
{
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

static int32_t aot_fp_wrap_add(int32_t a, int32_t b)
{
    return aot_fp_from_u32((uint32_t)a + (uint32_t)b);
}

static int32_t aot_fp_wrap_sub(int32_t a, int32_t b)
{
    return aot_fp_from_u32((uint32_t)a - (uint32_t)b);
}

static int32_t aot_fp_saturate_sum(int32_t a, int32_t b, int32_t negate_b)
{
    /* a + b or a - b clamped to int32, without widening. */
    if (negate_b) {
        if (b < 0 && a > INT32_MAX + b) {
            return INT32_MAX;
        }
        if (b > 0 && a < INT32_MIN + b) {
            return INT32_MIN;
        }
        return a - b;
    }
    if (b > 0 && a > INT32_MAX - b) {
        return INT32_MAX;
    }
    if (b < 0 && a < INT32_MIN - b) {
        return INT32_MIN;
    }
    return a + b;
}

int32_t aot_fp_log_x_ge_1(int32_t x, int32_t input_integer_bits, int32_t output_integer_bits)
{
    /* The accumulation keeps one more integer bit than the output, so that the exponent term times log 2 may
     * saturate without spoiling the mantissa term added to it. */
    const int32_t accum_bits = output_integer_bits + 1;
    const int32_t log_2 = 1488522236;
    const int32_t sqrt_sqrt_half = 1805811301;
    const int32_t sqrt_half = 1518500250;
    const int32_t alpha_n = 117049297;
    const int32_t alpha_d = 127690142;
    const int32_t alpha_i = 1057819769;
    const int32_t alpha_f = 638450708;
    const int32_t shifted_quarter = aot_fp_rounding_divide_by_pot(536870912, accum_bits);
    const int32_t za_headroom_plus_1 = aot_fp_count_leading_zeros((uint32_t)x);
    const int32_t ra_tmp = aot_fp_saturating_rounding_mul_by_pot(x, za_headroom_plus_1 - 1);
    const int32_t ra = aot_fp_saturating_rounding_mul_by_pot(aot_fp_mul(ra_tmp, sqrt_half), 1);
    const int32_t za_pow2 = aot_fp_saturate_sum(
        aot_fp_saturating_rounding_mul_by_pot(input_integer_bits - za_headroom_plus_1, 31 - accum_bits),
        shifted_quarter, 0);
    const int32_t zb = aot_fp_mul(x, sqrt_half);
    const int32_t zb_headroom = aot_fp_count_leading_zeros((uint32_t)zb) - 1;
    const int32_t rb = aot_fp_saturating_rounding_mul_by_pot(x, zb_headroom);
    const int32_t zb_pow2 = aot_fp_saturate_sum(
        aot_fp_saturating_rounding_mul_by_pot(input_integer_bits - zb_headroom, 31 - accum_bits), shifted_quarter, 1);
    const int32_t r = ra < rb ? ra : rb;
    const int32_t z_pow2 = za_pow2 > zb_pow2 ? za_pow2 : zb_pow2;
    const int32_t p = aot_fp_rounding_half_sum(r, sqrt_sqrt_half);
    const int32_t q_half = aot_fp_wrap_sub(r, sqrt_sqrt_half);
    const int32_t q = aot_fp_wrap_add(q_half, q_half);
    const int32_t common_sq = aot_fp_mul(q, q);
    const int32_t num = aot_fp_wrap_add(aot_fp_mul(q, r), aot_fp_mul(aot_fp_mul(q, common_sq), alpha_n));
    const int32_t denom_minus_one =
        aot_fp_wrap_add(aot_fp_mul(p, aot_fp_wrap_add(aot_fp_wrap_add(alpha_i, q), aot_fp_mul(alpha_d, common_sq))),
                        aot_fp_mul(alpha_f, q));
    const int32_t recip_denom = aot_fp_one_over_one_plus_x(denom_minus_one);
    const int32_t num_scaled = aot_fp_rounding_divide_by_pot(num, accum_bits);
    return aot_fp_saturating_rounding_mul_by_pot(
        aot_fp_wrap_add(aot_fp_mul(z_pow2, log_2), aot_fp_mul(num_scaled, recip_denom)),
        accum_bits - output_integer_bits);
}

void aot_fp_inv_sqrt_multiplier(int32_t input, int32_t* multiplier, int32_t* shift)
{
    /* Newton-Raphson on 1/sqrt(y) in Q3.28 for y = input scaled by 4^k into [2^27, 2^29), from 1, five steps. */
    const int32_t half_three = (1 << 28) + (1 << 27);
    int32_t s = 11;
    int32_t pairs, half_input, x, i;
    if (input <= 1) {
        *multiplier = INT32_MAX;
        *shift = 0;
        return;
    }
    while (input >= (1 << 29)) {
        input /= 4;
        s++;
    }
    pairs = (aot_fp_count_leading_zeros((uint32_t)input) - 1) / 2 - 1;
    s -= pairs;
    input <<= 2 * pairs;
    half_input = aot_fp_rounding_divide_by_pot(input >> 1, 1);
    x = 1 << 28;
    for (i = 0; i < 5; i++) {
        const int32_t x3 = aot_fp_saturating_rounding_mul_by_pot(aot_fp_mul(aot_fp_mul(x, x), x), 6);
        x = aot_fp_saturating_rounding_mul_by_pot(
            aot_fp_wrap_sub(aot_fp_mul(half_three, x), aot_fp_mul(half_input, x3)), 3);
    }
    x = aot_fp_mul(x, 1518500250);
    if (s < 0) {
        x = aot_fp_from_u32((uint32_t)x << -s);
        s = 0;
    }
    *multiplier = x;
    *shift = -s;
}
