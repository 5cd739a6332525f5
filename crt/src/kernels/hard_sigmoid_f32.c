/* float32 HARD_SIGMOID. */
#include "aot_sched.h"

#include "aot/kernels/hard_sigmoid.h"

void aot_hard_sigmoid_f32(const float* input, float* output, int32_t size, float alpha, float beta)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float v = input[i] * alpha + beta;
        output[i] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
}
