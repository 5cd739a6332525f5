/* Fixed-point requantization primitive shared by all int8 kernels.
 *
 * This is the only CRT function whose implementation uses 64-bit integers:
 * everything else in the CRT and in generated code is 32-bit, which keeps the
 * hot loops cheap on Cortex-M0/M3 and makes the one wide multiply auditable.
 */
#ifndef AOT_REQUANT_H_
#define AOT_REQUANT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns round(x * multiplier * 2^(shift - 31)) with TFLite's exact rounding:
 * a saturating rounding doubling high multiply followed by a rounding
 * (half away from zero) arithmetic right shift.  `multiplier` is a Q0.31
 * significand in [2^30, 2^31) (or 0) and `shift` its power-of-two exponent,
 * both produced at compile time.  With shift == 0 this is exactly gemmlowp's
 * SaturatingRoundingDoublingHighMul(x, multiplier). */
int32_t aot_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift);

#ifdef __cplusplus
}
#endif

#endif /* AOT_REQUANT_H_ */
