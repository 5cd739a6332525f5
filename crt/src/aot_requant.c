/* The single CRT translation unit allowed to use 64-bit arithmetic.
 *
 * aot_multiply_by_quantized_multiplier's semantics follow TFLite's default ("double rounding") MultiplyByQuantizedMultiplier:
 *   RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x << left, m), right)
 * Bit-exactness with the TFLite Micro reference kernels depends on every
 * detail here (nudge direction, truncating division, saturation corner case).
 */
#include "aot/requant.h"

int32_t aot_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    /* Shift through uint32_t so an (unexpected) overflow wraps like the
     * reference implementation does in practice instead of being UB. */
    const int32_t a = (int32_t)((uint32_t)x << left_shift);
    int32_t high;

    if (a == INT32_MIN && multiplier == INT32_MIN) {
        /* The only product that does not fit: saturate like gemmlowp. */
        high = INT32_MAX;
    } else {
        const int64_t ab = (int64_t)a * (int64_t)multiplier;
        const int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
        /* Division (not a shift) on purpose: it truncates toward zero. */
        high = (int32_t)((ab + nudge) / ((int64_t)1 << 31));
    }

    if (right_shift == 0) {
        return high;
    }
    {
        const int32_t mask = (int32_t)(((uint32_t)1 << right_shift) - 1u);
        const int32_t remainder = high & mask;
        const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
        return (high >> right_shift) + (remainder > threshold ? 1 : 0);
    }
}

int32_t aot_requant_acc64(int32_t acc_hi, int32_t acc_lo, const int32_t* bias, int32_t reduced_multiplier,
                          int32_t total_shift)
{
    int64_t x = (int64_t)acc_hi * 256 + (int64_t)acc_lo;
    if (bias != 0) {
        /* The high word carries the sign; the low word is the unsigned low half. */
        x += (int64_t)(((uint64_t)(uint32_t)bias[1] << 32) | (uint64_t)(uint32_t)bias[0]);
    }
    /* Rounds half up (an arithmetic shift), unlike the 32-bit form; the result is narrowed as TFLite does. */
    x = x * (int64_t)reduced_multiplier + ((int64_t)1 << (total_shift - 1));
    return (int32_t)(x >> total_shift);
}
