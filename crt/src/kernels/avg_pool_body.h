/* Quantized average pooling over in-image taps (TFLite semantics: the int32 sum divided rounding half away from
 * zero; an int16 window sums to at most 2^15 taps times 2^15), written once for the int8 and int16 kernels: a
 * kernel file defines AOT_POOL_T (the element type) and AOT_POOL_NAME (the function) and includes this body, so
 * each kernel is the loop written for its own type (the same code as a hand-typed kernel).  Internal to the CRT. */

#include <stdint.h>

#include "aot/errors.h"

int32_t AOT_POOL_NAME(const AOT_POOL_T* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                      AOT_POOL_T* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                      int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                      int32_t act_max)
{
    int32_t b, oy, ox, c, fy, fx;
    for (b = 0; b < batches; b++) {
        for (oy = 0; oy < out_h; oy++) {
            const int32_t y0 = oy * stride_h - pad_top;
            const int32_t fy_start = y0 < 0 ? -y0 : 0;
            const int32_t fy_end = filter_h < in_h - y0 ? filter_h : in_h - y0;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t x0 = ox * stride_w - pad_left;
                const int32_t fx_start = x0 < 0 ? -x0 : 0;
                const int32_t fx_end = filter_w < in_w - x0 ? filter_w : in_w - x0;
                const int32_t count = (fy_end - fy_start) * (fx_end - fx_start);
                if (fy_end <= fy_start || fx_end <= fx_start) {
                    return AOT_ERR_KERNEL;
                }
                for (c = 0; c < channels; c++) {
                    int32_t acc = 0;
                    for (fy = fy_start; fy < fy_end; fy++) {
                        for (fx = fx_start; fx < fx_end; fx++) {
                            acc += input[((b * in_h + y0 + fy) * in_w + x0 + fx) * channels + c];
                        }
                    }
                    /* C division truncates, so bias by half the divisor away from zero. */
                    acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
                    acc = acc < act_min ? act_min : acc;
                    acc = acc > act_max ? act_max : acc;
                    output[((b * out_h + oy) * out_w + ox) * channels + c] = (AOT_POOL_T)acc;
                }
            }
        }
    }
    return AOT_OK;
}

/* The including kernel's parameters end with its body (a unity build includes the next kernel after it). */
#undef AOT_POOL_T
#undef AOT_POOL_NAME
