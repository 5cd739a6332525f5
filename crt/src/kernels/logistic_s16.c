/* int16 LOGISTIC: every element through the table sigmoid of aot/sigmoid_s16.h. */
#include "aot_sched.h"

#include "aot/kernels/logistic.h"
#include "aot/sigmoid_s16.h"

void aot_logistic_s16(const int16_t* input, int16_t* output, int32_t size, int32_t multiplier, int32_t shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = aot_sigmoid_s16_elem(input[i], multiplier, shift);
    }
}
