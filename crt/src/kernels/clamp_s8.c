/* int8 CLAMP in the (shared) quantized domain. */
#include "aot_sched.h"

#include "aot/kernels/clamp.h"

void aot_clamp_s8(const int8_t* input, int8_t* output, int32_t size, int32_t lo, int32_t hi)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t v = input[i];
        output[i] = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
    }
}
