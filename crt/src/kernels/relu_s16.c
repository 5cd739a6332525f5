/* int16 RELU (16x8 models) with requantization to the output scale (quant_elem.h's requantization, clamped to the
 * activation range). */
#include "aot_sched.h"

#include "aot/kernels/relu.h"
#include "quant_elem.h"

void aot_relu_s16(const int16_t* input, int16_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                  int32_t shift, int32_t output_zero_point, int32_t act_min, int32_t act_max)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int16_t)aot_qe_requantize(input[i], input_zero_point, multiplier, shift, output_zero_point,
                                               act_min, act_max);
    }
}
