/* float32 TRANSPOSE_CONV, gathered per output pixel (aot/kernels/transpose_conv.h). */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/transpose_conv.h"

#include "transpose_conv_taps.h"

void aot_transpose_conv_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const float* filter, int32_t filter_h, int32_t filter_w, const float* bias, float* output,
                            int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                            int32_t pad_top, int32_t pad_left, float act_min, float act_max)
{
    int32_t b, oy, ox, oc, iy, ix, fy, fx, c;

    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t iy0 = aot_tconv_first(oy, pad_top, stride_h, in_h);
            for (ox = 0; ox < out_w; ox++) {
                const int32_t ix0 = aot_tconv_first(ox, pad_left, stride_w, in_w);
                float* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                for (oc = 0; oc < out_c; oc++) {
                    const float* f_oc = filter + oc * filter_h * filter_w * in_c;
                    float acc = 0.0f;
                    for (iy = iy0; iy >= 0 && (fy = oy + pad_top - iy * stride_h) < filter_h; iy--) {
                        for (ix = ix0; ix >= 0 && (fx = ox + pad_left - ix * stride_w) < filter_w; ix--) {
                            const float* in_px = in_b + (iy * in_w + ix) * in_c;
                            const float* f_px = f_oc + (fy * filter_w + fx) * in_c;
                            for (c = 0; c < in_c; c++) {
                                acc += in_px[c] * f_px[c];
                            }
                        }
                    }
                    /* The bias after the taps, as TFLite adds it. */
                    if (bias != NULL) {
                        acc += bias[oc];
                    }
                    acc = acc < act_min ? act_min : acc;
                    acc = acc > act_max ? act_max : acc;
                    out_px[oc] = acc;
                }
            }
        }
    }
}
