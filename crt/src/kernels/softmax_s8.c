/* int8 softmax using gemmlowp fixed-point exp and reciprocal.
 *
 * Differences to the row maximum are rescaled into Q5.26, exponentiated,
 * accumulated in Q12.19, and normalized with a fixed-point reciprocal; the
 * result is written with scale 1/256 and zero point -128 (int8 output) or scale 1/65536 and zero point -32768
 * (int16 output, TFLite's int8 -> int16 softmax).
 */
#include "aot/fixedpoint.h"
#include "aot/kernels/softmax.h"
#include "aot/requant.h"

#define AOT_SOFTMAX_DIFF_INT_BITS 5
#define AOT_SOFTMAX_ACCUM_INT_BITS 12

/* One row: differences to the row maximum through the fixed-point exp, normalized by the reciprocal of their sum,
 * written with `out_bits` bits (8: scale 1/256, zero point -128; 16: scale 1/65536, zero point -32768) to whichever
 * of out8 / out16 is not NULL. */
static void aot_softmax_s8_row(const int8_t* in_row, int32_t depth, int32_t input_multiplier,
                               int32_t input_left_shift, int32_t diff_min, int32_t out_bits, int8_t* out8,
                               int16_t* out16)
{
    const int32_t lo = -((int32_t)1 << (out_bits - 1)), hi = ((int32_t)1 << (out_bits - 1)) - 1;
    int32_t max_in_row = -128;
    int32_t sum_of_exps = 0;
    int32_t num_bits_over_unit = 0;
    int32_t shifted_scale;
    int32_t c;

    for (c = 0; c < depth; c++) {
        max_in_row = in_row[c] > max_in_row ? in_row[c] : max_in_row;
    }
    for (c = 0; c < depth; c++) {
        const int32_t diff = (int32_t)in_row[c] - max_in_row;
        if (diff >= diff_min) {
            const int32_t scaled = aot_multiply_by_quantized_multiplier(diff, input_multiplier, input_left_shift);
            const int32_t e = aot_fp_exp_on_negative_values(scaled, AOT_SOFTMAX_DIFF_INT_BITS);
            sum_of_exps += aot_fp_rounding_divide_by_pot(e, AOT_SOFTMAX_ACCUM_INT_BITS);
        }
    }
    shifted_scale = aot_fp_reciprocal(sum_of_exps, AOT_SOFTMAX_ACCUM_INT_BITS, &num_bits_over_unit);
    for (c = 0; c < depth; c++) {
        const int32_t diff = (int32_t)in_row[c] - max_in_row;
        int32_t out = lo;
        if (diff >= diff_min) {
            const int32_t scaled = aot_multiply_by_quantized_multiplier(diff, input_multiplier, input_left_shift);
            const int32_t e = aot_fp_exp_on_negative_values(scaled, AOT_SOFTMAX_DIFF_INT_BITS);
            out = aot_fp_rounding_divide_by_pot(aot_fp_mul(shifted_scale, e), num_bits_over_unit + 31 - out_bits);
            out += lo;
            out = out < lo ? lo : (out > hi ? hi : out);
        }
        if (out8 != 0) {
            out8[c] = (int8_t)out;
        } else {
            out16[c] = (int16_t)out;
        }
    }
}

void aot_softmax_s8(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                    int32_t input_left_shift, int32_t diff_min, int8_t* output)
{
    int32_t i;
    for (i = 0; i < outer; i++) {
        aot_softmax_s8_row(input + i * depth, depth, input_multiplier, input_left_shift, diff_min, 8,
                           output + i * depth, 0);
    }
}

void aot_softmax_s8_s16(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                        int32_t input_left_shift, int32_t diff_min, int16_t* output)
{
    int32_t i;
    for (i = 0; i < outer; i++) {
        aot_softmax_s8_row(input + i * depth, depth, input_multiplier, input_left_shift, diff_min, 16, 0,
                           output + i * depth);
    }
}
