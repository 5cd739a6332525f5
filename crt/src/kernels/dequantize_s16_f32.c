/* int16 -> float32 dequantization (outputs of 16x8 models). */
#include "aot_sched.h"

#include "aot/kernels/dequantize.h"

void aot_dequantize_s16_f32(const int16_t* input, float* output, int32_t size, float scale, int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = scale * (float)((int32_t)input[i] - zero_point);
    }
}
