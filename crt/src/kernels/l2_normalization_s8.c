/* int8 L2_NORMALIZATION over the last dimension (aot/kernels/normalize.h), TFLite Micro's arithmetic: the sum of
 * squares of (x - input zero point) over a row, its fixed-point inverse square root, and each element scaled by it
 * into the fixed output scale 1/128 (zero point 0), saturated.  TFLite Micro ignores the output tensor's own
 * quantization parameters here, and so does this kernel. */
#include "aot_sched.h"

#include "aot/fixedpoint.h"
#include "aot/kernels/normalize.h"
#include "aot/requant.h"

void aot_l2_normalization_s8(const int8_t* input, int8_t* output, int32_t rows, int32_t depth, int32_t input_zero_point)
{
    /* The output is in Q0.7 (scale 1/128). */
    const int32_t output_bits = 7;
    int32_t r, c;
    for (r = 0; r < rows; r++) {
        const int8_t* in = input + r * depth;
        int8_t* out = output + r * depth;
        int32_t sum = 0;
        int32_t inv_sqrt, shift;
        for (c = 0; c < depth; c++) {
            const int32_t v = (int32_t)in[c] - input_zero_point;
            sum += v * v;
        }
        aot_fp_inv_sqrt_multiplier(sum, &inv_sqrt, &shift);
        for (c = 0; c < depth; c++) {
            const int32_t v =
                aot_multiply_by_quantized_multiplier((int32_t)in[c] - input_zero_point, inv_sqrt, shift + output_bits);
            out[c] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
        }
    }
}
