/* int8 hard swish in 16-bit fixed point (TFLite reference semantics).
 *
 * All int16 quantities are held in int32_t; the helpers below reproduce the
 * int16 gemmlowp/TFLite primitives exactly for arguments in int16 range.
 */
#include "aot_sched.h"

#include "aot/kernels/hard_swish.h"

#define AOT_HS_INT16_MIN (-32768)
#define AOT_HS_INT16_MAX 32767

/* gemmlowp SaturatingRoundingDoublingHighMul for int16 operands. */
static int32_t aot_hs_srdhm16(int32_t a, int32_t b)
{
    int32_t ab;
    int32_t nudge;
    if (a == AOT_HS_INT16_MIN && b == AOT_HS_INT16_MIN) {
        return AOT_HS_INT16_MAX;
    }
    ab = a * b;
    nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    /* C division truncates toward zero, as the reference relies on. */
    return (ab + nudge) / (1 << 15);
}

/* Doubling high multiply that truncates instead of rounding (like SQDMULH). */
static int32_t aot_hs_sdhm16(int32_t a, int32_t b)
{
    if (a == AOT_HS_INT16_MIN && b == AOT_HS_INT16_MIN) {
        return AOT_HS_INT16_MAX;
    }
    return (a * b) / (1 << 15);
}

/* Left shift saturating to int16; |value| <= 2^15 so amounts below 16 fit. */
static int32_t aot_hs_saturating_left_shift16(int32_t value, int32_t amount)
{
    int32_t r;
    if (value == 0) {
        return 0;
    }
    if (amount >= 16) {
        return value > 0 ? AOT_HS_INT16_MAX : AOT_HS_INT16_MIN;
    }
    r = value * (1 << amount);
    r = r > AOT_HS_INT16_MAX ? AOT_HS_INT16_MAX : r;
    r = r < AOT_HS_INT16_MIN ? AOT_HS_INT16_MIN : r;
    return r;
}

/* Rounding (half away from zero) right shift; exponent in [0, 15]. */
static int32_t aot_hs_rounding_divide_by_pot(int32_t x, int32_t exponent)
{
    const int32_t mask = (1 << exponent) - 1;
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* The reference adds the zero point in int16 arithmetic; keep its wrap-around. */
static int32_t aot_hs_wrap16(int32_t x)
{
    return (int32_t)((uint32_t)(x + 32768) & 0xFFFFu) - 32768;
}

void aot_hard_swish_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                       int32_t output_zero_point, int32_t reluish_multiplier, int32_t reluish_exponent,
                       int32_t output_multiplier, int32_t output_exponent)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t x = (int32_t)input[i] - input_zero_point;
        /* 7 bits of headroom: |x| <= 255, so x * 128 still fits int16. */
        const int32_t x_hires = x * (1 << 7);
        const int32_t x_preshift_out = aot_hs_srdhm16(x_hires, output_multiplier);
        int32_t reluish = x_hires;
        int32_t out;
        if (reluish_exponent > 0) {
            /* All but the last bit first, so saturation here cannot matter. */
            reluish = aot_hs_saturating_left_shift16(reluish, reluish_exponent - 1);
        }
        reluish = aot_hs_srdhm16(reluish, reluish_multiplier);
        if (reluish_exponent > 0) {
            reluish = aot_hs_saturating_left_shift16(reluish, 1);
        }
        if (reluish_exponent < 0) {
            reluish = aot_hs_rounding_divide_by_pot(reluish, -reluish_exponent);
        }
        /* [-1, 1] in Q0.15 -> [0, 1]. */
        reluish = (reluish + (1 << 15)) >> 1;
        out = aot_hs_sdhm16(reluish, x_preshift_out);
        out = aot_hs_rounding_divide_by_pot(out, -output_exponent);
        out = aot_hs_wrap16(out + output_zero_point);
        out = out > 127 ? 127 : out;
        out = out < -128 ? -128 : out;
        output[i] = (int8_t)out;
    }
}
