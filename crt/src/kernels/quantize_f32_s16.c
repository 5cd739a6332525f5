/* float32 -> int16 affine quantization (TFLite AffineQuantize semantics, 16x8 model inputs). */
#include "aot_sched.h"

#include "aot/kernels/quantize.h"
#include "quant_elem.h"

void aot_quantize_f32_s16(const float* input, int16_t* output, int32_t size, float scale, int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int16_t)aot_qe_quantize_f32(input[i], scale, zero_point, -32768, 32767);
    }
}
