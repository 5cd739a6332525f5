/* float32 -> int8 affine quantization (TFLite AffineQuantize semantics). */
#include "aot_sched.h"

#include "aot/kernels/quantize.h"
#include "quant_elem.h"

void aot_quantize_f32_s8(const float* input, int8_t* output, int32_t size, float scale, int32_t zero_point)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int8_t)aot_qe_quantize_f32(input[i], scale, zero_point, -128, 127);
    }
}
