/* float32 RELU6: clamp to [0, 6]; NaN passes through like the reference. */
#include "aot_sched.h"

#include "aot/kernels/relu.h"

void aot_relu6_f32(const float* input, float* output, int32_t size)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float v = input[i];
        output[i] = v > 6.0f ? 6.0f : (v < 0.0f ? 0.0f : v);
    }
}
