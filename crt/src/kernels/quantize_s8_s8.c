/* int8 -> int8 requantization (QUANTIZE between two int8 quantizations). */
#include "aot_sched.h"

#include "aot/kernels/quantize.h"
#include "quant_elem.h"

void aot_requantize_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,
                       int32_t shift, int32_t output_zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] =
            (int8_t)aot_qe_requantize(input[i], input_zero_point, multiplier, shift, output_zero_point, -128, 127);
    }
}
