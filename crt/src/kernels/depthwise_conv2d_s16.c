/* int16x8 depthwise convolution, any depth multiplier (aot/kernels/depthwise_conv2d.h, acc16_inline.h). */
#include "aot_sched.h"

#include "aot/kernels/depthwise_conv2d.h"

#include "aot/kernels/acc16_inline.h"

void aot_depthwise_conv2d_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                              const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                              const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                              int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                              int32_t pad_left, int32_t mode, const int32_t* out_multiplier, const int32_t* out_shift,
                              int32_t act_min, int32_t act_max)
{
    const int32_t out_c = in_c * depth_multiplier;
    int32_t b, oy, ox, oc, fy, fx;

    for (b = 0; b < batches; b++) {
        const int16_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t in_y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t in_x0 = ox * stride_w - pad_left;
                int16_t* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                for (oc = 0; oc < out_c; oc++) {
                    const int32_t ic = oc / depth_multiplier;
                    struct aot_acc16 acc = {0u, 0u};
                    for (fy = 0; fy < filter_h; fy++) {
                        const int32_t iy = in_y0 + dilation_h * fy;
                        if (iy < 0 || iy >= in_h) {
                            continue; /* padding contributes 0 (zero point 0) */
                        }
                        for (fx = 0; fx < filter_w; fx++) {
                            const int32_t ix = in_x0 + dilation_w * fx;
                            if (ix >= 0 && ix < in_w) {
                                aot_acc16_dot(&acc, mode, in_b + (iy * in_w + ix) * in_c + ic, 1,
                                              filter + (fy * filter_w + fx) * out_c + oc, 1, 1);
                            }
                        }
                    }
                    out_px[oc] =
                        aot_acc16_out(&acc, mode, bias, oc, out_multiplier[oc], out_shift[oc], act_min, act_max);
                }
            }
        }
    }
}
