/* tanh in gemmlowp fixed point (aot_fixedpoint.h), apart from the helpers softmax also calls.
 *
 * Without -ffunction-sections an image links whole objects: in a unit of its own, only images with an int8
 * TANH link it.
 */
#include "kernels/aot_sched.h"

#include "aot/fixedpoint.h"

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
