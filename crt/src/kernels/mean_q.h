/* Quantized MEAN over any set of the 4 dimensions, shared by the int8 and int16 kernels (mean_s8.c, mean_s16.c):
 * TFLite Micro's integer QuantizedMeanOrSum, the int32 sum of (q - zero point) requantized once with a multiplier
 * that has 1/count folded in (compiler/quant_math.py), offset and saturated to the element type.  The element size
 * is a constant of each kernel, so the loads and stores fold to its type.  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_MEAN_Q_H_
#define AOT_SRC_KERNELS_MEAN_Q_H_

#include <stdint.h>

#include "aot/requant.h"

static inline int32_t aot_mean_q_load(const void* data, int32_t index, int32_t size)
{
    return size == 1 ? (int32_t)((const int8_t*)data)[index] : (int32_t)((const int16_t*)data)[index];
}

static inline void aot_mean_q_store(void* data, int32_t index, int32_t size, int32_t q)
{
    if (size == 1) {
        ((int8_t*)data)[index] = (int8_t)(q < -128 ? -128 : (q > 127 ? 127 : q));
    } else {
        ((int16_t*)data)[index] = (int16_t)(q < -32768 ? -32768 : (q > 32767 ? 32767 : q));
    }
}

static inline void aot_mean_q(const void* input, void* output, int32_t size, const int32_t* in_dims,
                              const int32_t* reduced, int32_t input_offset, int32_t multiplier, int32_t shift,
                              int32_t output_offset)
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
            const int32_t image = o0 * pixels * c_n;
            for (o3 = 0; o3 < c_n; o3++) {
                int32_t x = image + o3;
                int32_t acc = pixels * input_offset;
                int32_t q;
                for (r1 = 0; r1 < pixels; r1++) {
                    acc += aot_mean_q_load(input, x, size);
                    x += c_n;
                }
                q = aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + output_offset;
                aot_mean_q_store(output, o++, size, q);
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
                                    (((o0 + r0) * in_dims[1] + (o1 + r1)) * in_dims[2] + (o2 + r2)) *
                                    in_dims[3];
                                for (r3 = 0; r3 < rd[3]; r3++) {
                                    acc += aot_mean_q_load(input, row + o3 + r3, size) + input_offset;
                                }
                            }
                        }
                    }
                    q = aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + output_offset;
                    aot_mean_q_store(output, o++, size, q);
                }
            }
        }
    }
}

#endif
