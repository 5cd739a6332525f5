/* Quantized MEAN over any set of the 4 dimensions, written once for the int8 and int16 kernels: TFLite Micro's
 * integer QuantizedMeanOrSum, the int32 sum of (q - zero point) requantized once with a multiplier that has
 * 1/count folded in (compiler/quant_math.py), offset and saturated.  A kernel file defines AOT_MEAN_T (the element
 * type), AOT_MEAN_MIN / AOT_MEAN_MAX (its range) and AOT_MEAN_NAME (the function) and includes this body, so each
 * kernel is the loop written for its own type.  Internal to the CRT. */

#include <stdint.h>

#include "aot/requant.h"

void AOT_MEAN_NAME(const AOT_MEAN_T* input, AOT_MEAN_T* output, const int32_t* in_dims, const int32_t* reduced,
                   int32_t input_offset, int32_t multiplier, int32_t shift, int32_t output_offset)
{
    int32_t od[4], rd[4];
    int32_t d, o0, o1, o2, o3, r0, r1, r2, r3;
    int32_t o = 0;
    /* Output loops run over kept dimensions, reduction loops over reduced
     * ones; input coordinate d is then o_d + r_d (one of them is always 0). */
    for (d = 0; d < 4; d++) {
        od[d] = reduced[d] ? 1 : in_dims[d];
        rd[d] = reduced[d] ? in_dims[d] : 1;
    }
    if (!reduced[0] && reduced[1] && reduced[2] && !reduced[3]) {
        /* Global average pooling (NHWC, over H and W): one strided walk per channel, the input offset added once
         * per output instead of once per element. */
        const int32_t c_n = in_dims[3], pixels = in_dims[1] * in_dims[2];
        for (o0 = 0; o0 < in_dims[0]; o0++) {
            const AOT_MEAN_T* const image = input + o0 * pixels * c_n;
            for (o3 = 0; o3 < c_n; o3++) {
                const AOT_MEAN_T* x = image + o3;
                int32_t acc = pixels * input_offset;
                int32_t q;
                for (r1 = 0; r1 < pixels; r1++) {
                    acc += *x;
                    x += c_n;
                }
                q = aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + output_offset;
                q = q < AOT_MEAN_MIN ? AOT_MEAN_MIN : q;
                q = q > AOT_MEAN_MAX ? AOT_MEAN_MAX : q;
                output[o++] = (AOT_MEAN_T)q;
            }
        }
        return;
    }
    for (o0 = 0; o0 < od[0]; o0++) {
        for (o1 = 0; o1 < od[1]; o1++) {
            for (o2 = 0; o2 < od[2]; o2++) {
                for (o3 = 0; o3 < od[3]; o3++) {
                    int32_t acc = 0;
                    int32_t q;
                    for (r0 = 0; r0 < rd[0]; r0++) {
                        for (r1 = 0; r1 < rd[1]; r1++) {
                            for (r2 = 0; r2 < rd[2]; r2++) {
                                const int32_t row =
                                    (((o0 + r0) * in_dims[1] + (o1 + r1)) * in_dims[2] + (o2 + r2)) * in_dims[3];
                                for (r3 = 0; r3 < rd[3]; r3++) {
                                    acc += (int32_t)input[row + o3 + r3] + input_offset;
                                }
                            }
                        }
                    }
                    q = aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + output_offset;
                    q = q < AOT_MEAN_MIN ? AOT_MEAN_MIN : q;
                    q = q > AOT_MEAN_MAX ? AOT_MEAN_MAX : q;
                    output[o++] = (AOT_MEAN_T)q;
                }
            }
        }
    }
}

/* The including kernel's parameters end with its body (a unity build includes the next kernel after it). */
#undef AOT_MEAN_T
#undef AOT_MEAN_MIN
#undef AOT_MEAN_MAX
#undef AOT_MEAN_NAME
