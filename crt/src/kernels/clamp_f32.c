/* float32 CLAMP; comparisons written so that NaN passes through unchanged. */
#include "aot_sched.h"

#include "aot/kernels/clamp.h"

void aot_clamp_f32(const float* input, float* output, int32_t size, float lo, float hi)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const float v = input[i];
        output[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}
