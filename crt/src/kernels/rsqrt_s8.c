/* int8 RSQRT (aot/kernels/unary.h), TFLite Micro's quantized arithmetic: 1 / sqrt(x - input zero point) as a
 * fixed-point inverse square root applied to 1 with 20 extra bits, then rescaled by 1 / (sqrt(input_scale) *
 * output_scale).  A value at the zero point gives the largest output; values below it (which TFLite Micro rejects
 * at run time) are computed as if they were 1. */
#include "aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/kernels/unary.h"
#include "aot/requant.h"

void aot_rsqrt_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                  int32_t output_zero_point, int32_t multiplier, int32_t shift)
{
    /* The extra precision the reference carries between its two rescalings. */
    const int32_t extra_bits = 20;
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t value = (int32_t)input[i] - input_zero_point;
        int32_t inv_sqrt, inv_shift, data, out;
        if (value == 0) {
            output[i] = 127;
            continue;
        }
        aot_fp_inv_sqrt_multiplier(value, &inv_sqrt, &inv_shift);
        data = aot_multiply_by_quantized_multiplier(1, inv_sqrt, inv_shift + extra_bits);
        out = aot_multiply_by_quantized_multiplier(data, multiplier, shift - extra_bits) + output_zero_point;
        output[i] = (int8_t)(out < -128 ? -128 : (out > 127 ? 127 : out));
    }
}
