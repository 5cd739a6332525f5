/* int8 logistic through gemmlowp fixed point (Q4.27 in, Q0.31 out). */
#include "aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/kernels/logistic.h"
#include "aot/requant.h"

#define AOT_LOGISTIC_INPUT_INT_BITS 4

void aot_logistic_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                     int32_t input_range_radius, int32_t input_multiplier, int32_t input_left_shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t x = (int32_t)input[i] - input_zero_point;
        if (x <= -input_range_radius) {
            output[i] = -128;
        } else if (x >= input_range_radius) {
            output[i] = 127;
        } else {
            const int32_t x_q4 = aot_multiply_by_quantized_multiplier(x, input_multiplier, input_left_shift);
            const int32_t y_q0 = aot_fp_logistic(x_q4, AOT_LOGISTIC_INPUT_INT_BITS);
            /* Q0.31 -> 1/256 steps, then the -128 zero point. */
            int32_t q = aot_fp_rounding_divide_by_pot(y_q0, 23) - 128;
            q = q < -128 ? -128 : q;
            q = q > 127 ? 127 : q;
            output[i] = (int8_t)q;
        }
    }
}
