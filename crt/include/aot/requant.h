/* Fixed-point requantization primitives shared by the integer kernels.
 *
 * These are the only CRT functions whose implementation uses 64-bit integers
 * (both in aot_requant.c): everything else in the CRT and in generated code is
 * 32-bit, which keeps the hot loops cheap on Cortex-M0/M3 and makes the wide
 * arithmetic auditable.
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

/* The requantization of TFLite's int16x8 layers with 64-bit biases (its int64_t MultiplyByQuantizedMultiplier):
 * with x = acc_hi * 256 + acc_lo + bias (bias given as two words, low word first and read as unsigned, or
 * NULL for none), returns (int32_t)((x * reduced_multiplier + 2^(total_shift - 1)) >> total_shift), where the
 * compiler precomputes reduced_multiplier (the Q0.31 multiplier rounded to 15 bits) and total_shift
 * (15 - shift, 1..46).  The accumulator reaches it as 32-bit parts so no kernel, argument or table holds a
 * 64-bit value: the kernels pass acc_hi = 0 and bias = NULL when the compiler proved that the whole sum, bias
 * included, fits int32 (the bias is then narrowed into the accumulator), and otherwise split every product
 * w * x into w * (x - x mod 256) / 256 (acc_hi) and w * (x mod 256) (acc_lo). */
int32_t aot_requant_acc64(int32_t acc_hi, int32_t acc_lo, const int32_t* bias, int32_t reduced_multiplier,
                          int32_t total_shift);

#ifdef __cplusplus
}
#endif

#endif /* AOT_REQUANT_H_ */
