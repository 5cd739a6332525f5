/* int16 RELU6 (16x8 models): clamp to the quantized [0, 6] of the (shared) quantization. */
#include "aot_sched.h"

#include "aot/kernels/relu.h"

void aot_relu6_s16(const int16_t* input, int16_t* output, int32_t size, int32_t lower, int32_t upper)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t v = input[i];
        /* Upper bound tested first, as the reference does, in case lower > upper. */
        output[i] = (int16_t)(v > upper ? upper : (v < lower ? lower : v));
    }
}
