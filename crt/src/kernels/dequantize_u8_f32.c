/* uint8 -> float32 dequantization (a legacy uint8 tensor TFLite Micro's DEQUANTIZE still takes). */
#include "aot_sched.h"

#include "aot/kernels/dequantize.h"

void aot_dequantize_u8_f32(const uint8_t* input, float* output, int32_t size, float scale, int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = scale * (float)((int32_t)input[i] - zero_point);
    }
}
