/* float32 hard swish, evaluated in the reference's operation order. */
#include "aot_sched.h"

#include "aot/kernels/hard_swish.h"

void aot_hard_swish_f32(const float* input, float* output, int32_t size)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float x = input[i];
        const float t = x + 3.0f;
        const float lo = 0.0f < t ? t : 0.0f;
        const float relu6 = lo < 6.0f ? lo : 6.0f;
        output[i] = x * relu6 / 6.0f;
    }
}
