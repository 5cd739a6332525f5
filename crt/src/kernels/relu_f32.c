/* float32 RELU: max(x, 0); NaN passes through like the reference. */
#include "aot_sched.h"

#include "aot/kernels/relu.h"

void aot_relu_f32(const float* input, float* output, int32_t size)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float v = input[i];
        output[i] = v < 0.0f ? 0.0f : v;
    }
}
