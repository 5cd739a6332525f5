/* The single CRT translation unit allowed to use 64-bit arithmetic.
 *
 * aot_multiply_by_quantized_multiplier's semantics follow TFLite's default ("double rounding")
 * MultiplyByQuantizedMultiplier: RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x << left, m), right)
 * Bit-exactness with the TFLite Micro reference kernels depends on every
 * detail here (rounding of the high half, saturation corner case, rounding of the right shift).
 */
#include "kernels/aot_sched.h"

#include <stddef.h>

#include "aot/requant.h"

/* gemmlowp's SaturatingRoundingDoublingHighMul. gemmlowp adds 2^30 (1 - 2^30 when the product is negative) and
 * divides by 2^31 truncating toward zero; for every product that equals adding 2^30 and shifting right
 * arithmetically (floor): for ab < 0 the truncated quotient of ab + 1 - 2^30 is the floor of (ab + 2^30) / 2^31.
 * On the Cortex-M4 that is one SMLAL and a shift instead of a 64-bit multiply emulation and a 64-bit division. */
static int32_t aot_doubling_high_mul(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN) {
        /* The only product that does not fit: saturate like gemmlowp. */
        return INT32_MAX;
    }
    return (int32_t)(((int64_t)a * (int64_t)b + ((int64_t)1 << 30)) >> 31);
}

int32_t aot_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift)
{
    int32_t high, mask, remainder, threshold;
    if (shift > 0) {
        /* Shift through uint32_t so an (unexpected) overflow wraps like the
         * reference implementation does in practice instead of being UB. */
        return aot_doubling_high_mul((int32_t)((uint32_t)x << shift), multiplier);
    }
    high = aot_doubling_high_mul(x, multiplier);
    if (shift == 0) {
        return high;
    }
    /* RoundingDivideByPOT(high, -shift): round half away from zero. */
    mask = (int32_t)(((uint32_t)1 << -shift) - 1u);
    remainder = high & mask;
    threshold = (mask >> 1) + (high < 0 ? 1 : 0);
    return (high >> -shift) + (remainder > threshold ? 1 : 0);
}

int32_t aot_requant_acc64(int32_t acc_hi, int32_t acc_lo, const int32_t* bias, int32_t reduced_multiplier,
                          int32_t total_shift)
{
    int64_t x = (int64_t)acc_hi * 256 + (int64_t)acc_lo;
    if (bias != NULL) {
        /* The high word carries the sign; the low word is the unsigned low half. */
        x += (int64_t)(((uint64_t)(uint32_t)bias[1] << 32) | (uint64_t)(uint32_t)bias[0]);
    }
    /* Rounds half up (an arithmetic shift), unlike the 32-bit form; the result is narrowed as TFLite does. */
    x = x * (int64_t)reduced_multiplier + ((int64_t)1 << (total_shift - 1));
    return (int32_t)(x >> total_shift);
}
