/* int8 -> int8 requantization (QUANTIZE between two int8 quantizations). */
#include "aot/kernels/quantize.h"
#include "aot/requant.h"

void aot_requantize_s8(const int8_t* input, int8_t* output, int32_t size,
                       int32_t input_zero_point, int32_t multiplier, int32_t shift,
                       int32_t output_zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        int32_t q = aot_multiply_by_quantized_multiplier((int32_t)input[i] - input_zero_point,
                                                         multiplier, shift) + output_zero_point;
        q = q < -128 ? -128 : q;
        q = q > 127 ? 127 : q;
        output[i] = (int8_t)q;
    }
}
