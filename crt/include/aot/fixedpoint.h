/* 32-bit fixed-point helpers (gemmlowp semantics) used by softmax, logistic,
 * tanh and other non-linear int8 kernels.
 *
 * Values are raw int32 with an implied number of integer bits (Qm.(31-m)).
 * All multiplies go through aot_multiply_by_quantized_multiplier so no other
 * file needs 64-bit arithmetic.
 */
#ifndef AOT_FIXEDPOINT_H_
#define AOT_FIXEDPOINT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* gemmlowp SaturatingRoundingDoublingHighMul: round(a * b / 2^31), saturating. */
int32_t aot_fp_mul(int32_t a, int32_t b);
/* Division by 2^exponent rounding half away from zero (exponent in [0, 31]). */
int32_t aot_fp_rounding_divide_by_pot(int32_t x, int32_t exponent);
/* Multiply by 2^exponent (any sign), saturating on overflow, rounding on underflow. */
int32_t aot_fp_saturating_rounding_mul_by_pot(int32_t x, int32_t exponent);
/* (a + b) / 2 rounded half away from zero, computed without widening. */
int32_t aot_fp_rounding_half_sum(int32_t a, int32_t b);
/* Number of leading zero bits of x (32 for x == 0). */
int32_t aot_fp_count_leading_zeros(uint32_t x);
/* exp(a) for a <= 0 given with `integer_bits` integer bits; result in Q0.31. */
int32_t aot_fp_exp_on_negative_values(int32_t a, int32_t integer_bits);
/* 1 / (1 + x) for x in [0, 1) given in Q0.31; result in Q0.31. */
int32_t aot_fp_one_over_one_plus_x(int32_t a);
/* Reciprocal of a positive Q(x_integer_bits) value as in TFLite's GetReciprocal:
 * returns the Q0.31 scale and the extra exponent in *num_bits_over_unit. */
int32_t aot_fp_reciprocal(int32_t x, int32_t x_integer_bits, int32_t* num_bits_over_unit);
/* logistic(a) and tanh(a) with `integer_bits` integer bits in, Q0.31 out. */
int32_t aot_fp_logistic(int32_t a, int32_t integer_bits);
int32_t aot_fp_tanh(int32_t a, int32_t integer_bits);
/* log(x) for x >= 1 given with `input_integer_bits` integer bits, result with `output_integer_bits` integer bits
 * (TFLite's log_x_for_x_greater_than_or_equal_to_1: a rational approximation on the mantissa plus the exponent
 * times log 2). */
int32_t aot_fp_log_x_ge_1(int32_t x, int32_t input_integer_bits, int32_t output_integer_bits);
/* 1 / sqrt(input) for input >= 0 as a Q0.31 multiplier and a shift, as TFLite's GetInvSqrtQuantizedMultiplierExp
 * with reverse_shift -1 (inputs 0 and 1 give INT32_MAX, 0). */
void aot_fp_inv_sqrt_multiplier(int32_t input, int32_t* multiplier, int32_t* shift);

#ifdef __cplusplus
}
#endif

#endif /* AOT_FIXEDPOINT_H_ */
