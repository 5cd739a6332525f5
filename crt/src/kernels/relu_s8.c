/* int8 RELU with requantization to the output scale. */
#include "aot_sched.h"

#include "aot/kernels/relu.h"
#include "aot/requant.h"

void aot_relu_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                 int32_t shift, int32_t output_zero_point, int32_t act_min, int32_t act_max)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        int32_t q = aot_multiply_by_quantized_multiplier((int32_t)input[i] - input_zero_point, multiplier, shift) +
                    output_zero_point;
        q = q < act_min ? act_min : q;
        q = q > act_max ? act_max : q;
        output[i] = (int8_t)q;
    }
}
