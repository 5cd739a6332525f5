/* int8 LOG_SOFTMAX over the last dimension (aot/kernels/normalize.h), TFLite Micro's fixed-point arithmetic:
 * differences from the row maximum rescaled to Q5.26, exp summed in Q12.19, its log in Q5.26, and
 * (difference - log sum) rounded into the fixed output scale 16/256 with zero point 127.  Differences too far below
 * the maximum to matter (or to be represented after subtracting the log sum) give -128. */
#include "aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/kernels/normalize.h"
#include "aot/requant.h"

static int32_t aot_log_softmax_wrap_add(int32_t a, int32_t b)
{
    const uint32_t u = (uint32_t)a + (uint32_t)b;
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

void aot_log_softmax_s8(const int8_t* input, int8_t* output, int32_t rows, int32_t depth,
                        const struct aot_log_softmax_s8_params* params)
{
    /* Integer bits of the rescaled differences (Q5.26), of the sum of exponentials (Q12.19) and of the output. */
    const int32_t input_bits = 5;
    const int32_t accum_bits = 12;
    const int32_t output_bits = 4;
    int32_t r, c;
    for (r = 0; r < rows; r++) {
        const int8_t* in = input + r * depth;
        int8_t* out = output + r * depth;
        int32_t max_in_row = -128;
        int32_t sum_of_exps = 0;
        int32_t log_sum, adjusted_diff_min, reverse;
        for (c = 0; c < depth; c++) {
            max_in_row = in[c] > max_in_row ? in[c] : max_in_row;
        }
        for (c = 0; c < depth; c++) {
            const int32_t diff = (int32_t)in[c] - max_in_row;
            if (diff >= params->diff_min) {
                const int32_t scaled =
                    aot_multiply_by_quantized_multiplier(diff, params->input_multiplier, params->input_left_shift);
                sum_of_exps +=
                    aot_fp_rounding_divide_by_pot(aot_fp_exp_on_negative_values(scaled, input_bits), accum_bits);
            }
        }
        log_sum = aot_fp_log_x_ge_1(sum_of_exps, accum_bits, input_bits);
        /* The smallest Q5.26 value plus the log sum, brought back to the input's difference scale. */
        reverse = aot_multiply_by_quantized_multiplier(aot_log_softmax_wrap_add(log_sum, INT32_MIN),
                                                       params->reverse_scaling_divisor, params->reverse_scaling_shift);
        adjusted_diff_min = params->diff_min - 1 > reverse ? params->diff_min - 1 : reverse;
        for (c = 0; c < depth; c++) {
            const int32_t diff = (int32_t)in[c] - max_in_row;
            if (diff > adjusted_diff_min) {
                const int32_t scaled =
                    aot_multiply_by_quantized_multiplier(diff, params->input_multiplier, params->input_left_shift);
                int32_t v = aot_fp_rounding_divide_by_pot(aot_log_softmax_wrap_add(scaled, -log_sum),
                                                          31 - input_bits - output_bits) +
                            127;
                out[c] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
            } else {
                out[c] = -128;
            }
        }
    }
}
