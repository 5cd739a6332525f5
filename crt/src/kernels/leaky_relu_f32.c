/* float32 LEAKY_RELU. */
#include "aot_sched.h"

#include "aot/kernels/leaky_relu.h"

void aot_leaky_relu_f32(const float* input, float* output, int32_t size, float alpha)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float v = input[i];
        output[i] = v >= 0.0f ? v : v * alpha;
    }
}
