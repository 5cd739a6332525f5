/* Reference float32 2-D convolution (NHWC / OHWI). */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/conv2d.h"

void aot_conv2d_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                    int32_t filter_h, int32_t filter_w, int32_t filter_depth, const float* bias, float* output,
                    int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                    int32_t dilation_w, int32_t pad_top, int32_t pad_left, float act_min, float act_max)
{
    const int32_t groups = in_c / filter_depth;
    const int32_t filters_per_group = out_c / groups;
    int32_t b, oy, ox, oc, fy, fx, ic;

    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t in_y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t in_x0 = ox * stride_w - pad_left;
                float* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                for (oc = 0; oc < out_c; oc++) {
                    const int32_t in_c0 = (oc / filters_per_group) * filter_depth;
                    const float* f_oc = filter + oc * filter_h * filter_w * filter_depth;
                    float acc = 0.0f;
                    for (fy = 0; fy < filter_h; fy++) {
                        const int32_t iy = in_y0 + dilation_h * fy;
                        if (iy < 0 || iy >= in_h) {
                            continue;
                        }
                        for (fx = 0; fx < filter_w; fx++) {
                            const int32_t ix = in_x0 + dilation_w * fx;
                            const float* in_px;
                            const float* f_px;
                            if (ix < 0 || ix >= in_w) {
                                continue;
                            }
                            in_px = in_b + (iy * in_w + ix) * in_c + in_c0;
                            f_px = f_oc + (fy * filter_w + fx) * filter_depth;
                            for (ic = 0; ic < filter_depth; ic++) {
                                acc += in_px[ic] * f_px[ic];
                            }
                        }
                    }
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
