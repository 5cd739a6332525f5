/* int8 table lookup, bytes (aot/kernels/lut.h): four lookups per pass halve the loop overhead on cores without
 * unaligned word access (Cortex-M0). */
#include "aot_sched.h"

#include "aot/kernels/lut.h"

void aot_lut_s8(const int8_t* input, int8_t* output, int32_t size, const int8_t* table)
{
    int32_t i = 0;
    for (; i + 4 <= size; i += 4) {
        const int8_t a = table[(uint8_t)input[i]];
        const int8_t b = table[(uint8_t)input[i + 1]];
        const int8_t c = table[(uint8_t)input[i + 2]];
        const int8_t d = table[(uint8_t)input[i + 3]];
        output[i] = a;
        output[i + 1] = b;
        output[i + 2] = c;
        output[i + 3] = d;
    }
    for (; i < size; i++) {
        output[i] = table[(uint8_t)input[i]];
    }
}
