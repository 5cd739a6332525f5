/* int8 softmax using gemmlowp fixed-point exp and reciprocal.
 *
 * Differences to the row maximum are rescaled into Q5.26, exponentiated,
 * accumulated in Q12.19, and normalized with a fixed-point reciprocal; the
 * result is written with scale 1/256 and zero point -128.
 */
#include "aot/fixedpoint.h"
#include "aot/kernels/softmax.h"
#include "aot/requant.h"

#define AOT_SOFTMAX_DIFF_INT_BITS 5
#define AOT_SOFTMAX_ACCUM_INT_BITS 12

void aot_softmax_s8(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                    int32_t input_left_shift, int32_t diff_min, int8_t* output)
{
    int32_t i, c;
    for (i = 0; i < outer; i++) {
        const int8_t* in_row = input + i * depth;
        int8_t* out_row = output + i * depth;
        int32_t max_in_row = -128;
        int32_t sum_of_exps = 0;
        int32_t num_bits_over_unit = 0;
        int32_t shifted_scale;

        for (c = 0; c < depth; c++) {
            max_in_row = in_row[c] > max_in_row ? in_row[c] : max_in_row;
        }
        for (c = 0; c < depth; c++) {
            const int32_t diff = (int32_t)in_row[c] - max_in_row;
            if (diff >= diff_min) {
                const int32_t scaled = aot_multiply_by_quantized_multiplier(diff, input_multiplier,
                                                                            input_left_shift);
                const int32_t e = aot_fp_exp_on_negative_values(scaled, AOT_SOFTMAX_DIFF_INT_BITS);
                sum_of_exps += aot_fp_rounding_divide_by_pot(e, AOT_SOFTMAX_ACCUM_INT_BITS);
            }
        }
        shifted_scale = aot_fp_reciprocal(sum_of_exps, AOT_SOFTMAX_ACCUM_INT_BITS,
                                          &num_bits_over_unit);
        for (c = 0; c < depth; c++) {
            const int32_t diff = (int32_t)in_row[c] - max_in_row;
            if (diff >= diff_min) {
                const int32_t scaled = aot_multiply_by_quantized_multiplier(diff, input_multiplier,
                                                                            input_left_shift);
                const int32_t e = aot_fp_exp_on_negative_values(scaled, AOT_SOFTMAX_DIFF_INT_BITS);
                int32_t out = aot_fp_rounding_divide_by_pot(aot_fp_mul(shifted_scale, e),
                                                            num_bits_over_unit + 31 - 8);
                out += -128;
                out = out < -128 ? -128 : out;
                out = out > 127 ? 127 : out;
                out_row[c] = (int8_t)out;
            } else {
                out_row[c] = -128;
            }
        }
    }
}
