/* int16 (16x8 models) LEAKY_RELU with TFLite's two multipliers (leaky_relu_q.h). */
#include "aot_sched.h"

#include "aot/kernels/leaky_relu.h"
#include "leaky_relu_q.h"

void aot_leaky_relu_s16(const int16_t* input, int16_t* output, int32_t size, const int32_t* params)
{
    struct aot_leaky_relu_q p;
    int32_t i;
    p.input_zero_point = params[0];
    p.identity_multiplier = params[1];
    p.identity_shift = params[2];
    p.alpha_multiplier = params[3];
    p.alpha_shift = params[4];
    p.output_zero_point = params[5];
    for (i = 0; i < size; i++) {
        output[i] = (int16_t)aot_leaky_relu_q_elem(input[i], &p, -32768, 32767);
    }
}
