/* int8 / int16 ABS (aot/kernels/unary.h), TFLite Micro's quantized arithmetic. */
#include "aot_sched.h"

#include "aot/kernels/unary.h"
#include "aot/requant.h"

static int32_t aot_abs_value(int32_t x, int32_t output_zero_point, int32_t rescale, int32_t multiplier, int32_t shift,
                             int32_t lo, int32_t hi)
{
    int32_t v = x < 0 ? -x : x;
    if (rescale) {
        v = aot_multiply_by_quantized_multiplier(v, multiplier, shift);
    }
    v += output_zero_point;
    return v < lo ? lo : (v > hi ? hi : v);
}

void aot_abs_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t output_zero_point,
                int32_t rescale, int32_t multiplier, int32_t shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int8_t)aot_abs_value((int32_t)input[i] - input_zero_point, output_zero_point, rescale, multiplier,
                                          shift, -128, 127);
    }
}

void aot_abs_s16(const int16_t* input, int16_t* output, int32_t size, int32_t rescale, int32_t multiplier,
                 int32_t shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int16_t)aot_abs_value(input[i], 0, rescale, multiplier, shift, -32768, 32767);
    }
}
