/* int8 RELU6: clamp to the quantized [0, 6] of the (shared) quantization. */
#include "aot_sched.h"

#include "aot/kernels/relu.h"

void aot_relu6_s8(const int8_t* input, int8_t* output, int32_t size, int32_t lower, int32_t upper)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t v = input[i];
        /* Upper bound tested first, as the reference does, in case lower > upper. */
        output[i] = (int8_t)(v > upper ? upper : (v < lower ? lower : v));
    }
}
