/* int8-input softmax with gemmlowp fixed-point exp and reciprocal, shared by the int8-output and int16-output
 * kernels (softmax_s8.c, softmax_s8_s16.c): differences to the row maximum are rescaled into Q5.26,
 * exponentiated, accumulated in Q12.19 and normalized with a fixed-point reciprocal; the result is written with
 * scale 1/256 and zero point -128 (int8) or scale 1/65536 and zero point -32768 (int16).  The output element size
 * is a constant of each kernel.  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_SOFTMAX_S8_BODY_H_
#define AOT_SRC_KERNELS_SOFTMAX_S8_BODY_H_

#include <stdint.h>

#include "aot/fixedpoint.h"
#include "aot/requant.h"

#define AOT_SOFTMAX_DIFF_INT_BITS  5
#define AOT_SOFTMAX_ACCUM_INT_BITS 12

static inline void aot_softmax_s8_store(void* output, int32_t index, int32_t out_size, int32_t v)
{
    if (out_size == 1) {
        ((int8_t*)output)[index] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    } else {
        ((int16_t*)output)[index] = (int16_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
    }
}

static inline void aot_softmax_s8_body(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                                       int32_t input_left_shift, int32_t diff_min, void* output, int32_t out_size)
{
    int32_t i, c;
    for (i = 0; i < outer; i++) {
        const int8_t* in_row = input + i * depth;
        const int32_t out_row = i * depth;
        int32_t max_in_row = -128;
        int32_t sum_of_exps = 0;
        int32_t num_bits_over_unit = 0;
        int32_t shifted_scale;
        const int32_t lowest = out_size == 1 ? -128 : -32768;

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
            if (diff >= diff_min) {
                const int32_t scaled = aot_multiply_by_quantized_multiplier(diff, input_multiplier, input_left_shift);
                const int32_t e = aot_fp_exp_on_negative_values(scaled, AOT_SOFTMAX_DIFF_INT_BITS);
                int32_t out =
                    aot_fp_rounding_divide_by_pot(aot_fp_mul(shifted_scale, e), num_bits_over_unit + 31 - 8 * out_size);
                aot_softmax_s8_store(output, out_row + c, out_size, out + lowest);
            } else {
                aot_softmax_s8_store(output, out_row + c, out_size, lowest);
            }
        }
    }
}

#endif
