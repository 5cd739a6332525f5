/* Reference float32 depthwise convolution. */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/depthwise_conv2d.h"

void aot_depthwise_conv2d_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                              const float* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                              const float* bias, float* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                              int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                              int32_t pad_left, float act_min, float act_max)
{
    const int32_t out_c = in_c * depth_multiplier;
    int32_t b, oy, ox, ic, m, fy, fx;

    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t in_y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t in_x0 = ox * stride_w - pad_left;
                float* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                for (ic = 0; ic < in_c; ic++) {
                    for (m = 0; m < depth_multiplier; m++) {
                        const int32_t oc = ic * depth_multiplier + m;
                        float acc = 0.0f;
                        for (fy = 0; fy < filter_h; fy++) {
                            const int32_t iy = in_y0 + dilation_h * fy;
                            if (iy < 0 || iy >= in_h) {
                                continue;
                            }
                            for (fx = 0; fx < filter_w; fx++) {
                                const int32_t ix = in_x0 + dilation_w * fx;
                                if (ix < 0 || ix >= in_w) {
                                    continue;
                                }
                                acc += in_b[(iy * in_w + ix) * in_c + ic] * filter[(fy * filter_w + fx) * out_c + oc];
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
}
