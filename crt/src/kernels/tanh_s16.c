/* int16 TANH: every element through the table tanh of aot/sigmoid_s16.h. */
#include "aot_sched.h"

#include "aot/kernels/tanh.h"
#include "aot/sigmoid_s16.h"

void aot_tanh_s16(const int16_t* input, int16_t* output, int32_t size, int32_t multiplier, int32_t shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = aot_tanh_s16_elem(input[i], multiplier, shift);
    }
}
