/* int16x8 2-D convolution, NHWC / OHWI (aot/kernels/conv2d.h, acc16_inline.h): the portable entry point and the
 * SMLAD one (acc16_dsp.h), one body with the dot product chosen by a constant. */
#include "aot_sched.h"

#include "aot/kernels/conv2d.h"

#include "acc16_dsp.h"
#include "aot/kernels/requant_s8_inline.h"

AOT_INLINE_BODY void conv2d_s16_body(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                     const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                                     const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                                     int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                     int32_t pad_top, int32_t pad_left, int32_t mode, const int32_t* out_multiplier,
                                     const int32_t* out_shift, int32_t act_min, int32_t act_max, int32_t dsp)
{
    const int32_t filters_per_group = out_c / (in_c / filter_depth);
    const int32_t filter_size = filter_h * filter_w * filter_depth;
    int32_t b, oy, ox, oc, fy, fx, step;

    for (b = 0; b < batches; b++) {
        const int16_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t in_y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t in_x0 = ox * stride_w - pad_left;
                int16_t* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                /* SMLAD entry point, ungrouped: two output channels per pass share every input load. */
                for (oc = 0; oc < out_c; oc += step) {
                    const int32_t in_c0 = (oc / filters_per_group) * filter_depth;
                    const int8_t* f_oc = filter + oc * filter_h * filter_w * filter_depth;
                    struct aot_acc16 acc = {0u, 0u}, acc1 = {0u, 0u};
                    step = dsp && filter_depth == in_c && oc + 1 < out_c ? 2 : 1;
                    for (fy = 0; fy < filter_h; fy++) {
                        const int32_t iy = in_y0 + dilation_h * fy;
                        if (iy < 0 || iy >= in_h) {
                            continue; /* padding contributes 0 (zero point 0) */
                        }
                        for (fx = 0; fx < filter_w; fx++) {
                            const int32_t ix = in_x0 + dilation_w * fx;
                            const int16_t* x;
                            const int8_t* w;
                            if (ix < 0 || ix >= in_w) {
                                continue;
                            }
                            x = in_b + (iy * in_w + ix) * in_c + in_c0;
                            w = f_oc + (fy * filter_w + fx) * filter_depth;
                            if (step == 2) {
                                aot_acc16_dot2_dsp(&acc, &acc1, x, w, w + filter_size, filter_depth);
                            } else if (dsp) {
                                aot_acc16_dot_dsp(&acc, x, w, filter_depth);
                            } else {
                                aot_acc16_dot(&acc, mode, x, 1, w, 1, filter_depth);
                            }
                        }
                    }
                    out_px[oc] =
                        aot_acc16_out(&acc, mode, bias, oc, out_multiplier[oc], out_shift[oc], act_min, act_max);
                    if (step == 2) {
                        out_px[oc + 1] = aot_acc16_out(&acc1, mode, bias, oc + 1, out_multiplier[oc + 1],
                                                       out_shift[oc + 1], act_min, act_max);
                    }
                }
            }
        }
    }
}

void aot_conv2d_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                    const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth, const int32_t* bias,
                    int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                    int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                    const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max)
{
    conv2d_s16_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, filter_depth, bias, output, out_h,
                    out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, mode, out_multiplier,
                    out_shift, act_min, act_max, 0);
}

void aot_conv2d_s16_dsp(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                        const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                        const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                        int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                        int32_t pad_left, int32_t mode, const int32_t* out_multiplier, const int32_t* out_shift,
                        int32_t act_min, int32_t act_max)
{
    conv2d_s16_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, filter_depth, bias, output, out_h,
                    out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, mode, out_multiplier,
                    out_shift, act_min, act_max, 1);
}
