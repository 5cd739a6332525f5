/* float32 tanh. */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/tanh.h"

void aot_tanh_f32(const float* input, float* output, int32_t size)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = tanhf(input[i]);
    }
}
