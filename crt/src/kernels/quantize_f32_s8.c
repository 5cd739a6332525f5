/* float32 -> int8 affine quantization (TFLite AffineQuantize semantics). */
#include <math.h>

#include "aot/kernels/quantize.h"

void aot_quantize_f32_s8(const float* input, int8_t* output, int32_t size, float scale,
                         int32_t zero_point)
{
    /* Saturate in the float domain: converting an out-of-range float to an
     * integer is undefined in C, and NaN must map somewhere deterministic. */
    const float lowest = (float)(-128 - zero_point);
    const float highest = (float)(127 - zero_point);
    int32_t i;
    for (i = 0; i < size; i++) {
        const float r = roundf(input[i] / scale);
        int32_t q;
        if (!(r >= lowest)) {
            q = -128;
        } else if (r > highest) {
            q = 127;
        } else {
            q = (int32_t)r + zero_point;
        }
        output[i] = (int8_t)q;
    }
}
