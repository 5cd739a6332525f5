/* float32 -> int8 quantization with round half to even (ONNX QuantizeLinear / QLinear requantization). */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/quantize_onnx.h"

void aot_quantize_onnx_f32_s8(const float* input, int8_t* output, int32_t size, int32_t mode, const float* scales,
                              const int32_t* zero_points, int32_t channels, int32_t inner)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t c = channels > 1 ? (i / inner) % channels : 0;
        /* Double for AOT_QUANTIZE_MULTIPLY (aot/kernels/quantize_onnx.h): the product of a float and a float32
         * multiplier is exact in double, and rounding the exact product is what QLinearConv / QLinearMatMul define;
         * a float product would round first and can land on the other side of a .5 tie. The divide mode's value
         * is an integer-valued float and passes through double unchanged. */
        double r;
        int32_t q;
        if (mode == AOT_QUANTIZE_DIVIDE) {
            r = (double)rintf(input[i] / scales[c]);
        } else {
            r = rint((double)input[i] * (double)scales[c]);
        }
        /* Saturate before converting: out-of-range and NaN values must not reach the integer conversion. */
        r += (double)zero_points[c];
        if (!(r >= -128.0)) {
            q = -128;
        } else if (r > 127.0) {
            q = 127;
        } else {
            q = (int32_t)r;
        }
        output[i] = (int8_t)q;
    }
}
