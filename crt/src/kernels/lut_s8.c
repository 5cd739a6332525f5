/* int8 table lookup (aot/kernels/lut.h). */
#include "aot/kernels/lut.h"

void aot_lut_s8(const int8_t* input, int8_t* output, int32_t size, const int8_t* table)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = table[(uint8_t)input[i]];
    }
}
