/* log(x) and 1/sqrt(x) in gemmlowp fixed point (aot_fixedpoint.h), apart from the helpers softmax also calls.
 *
 * Without -ffunction-sections an image links whole objects: in a unit of their own, only images with LOG_SOFTMAX,
 * L2_NORMALIZATION or RSQRT link them (together, as they share the wrap-around helpers).
 */
#include "kernels/aot_sched.h"

#include "aot/fixedpoint.h"

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
