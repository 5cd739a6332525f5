/* int16x8 TRANSPOSE_CONV, gathered per output pixel (aot/kernels/transpose_conv.h, acc16_inline.h): the portable
 * entry point and the SMLAD one (acc16_dsp.h), one body with the dot product chosen by a constant. */
#include "aot_sched.h"

#include "aot/kernels/transpose_conv.h"

#include "acc16_dsp.h"
#include "aot/kernels/requant_s8_inline.h"
#include "transpose_conv_taps.h"

AOT_INLINE_BODY void transpose_conv_s16_body(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                             int32_t in_c, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                             const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w,
                                             int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t pad_top,
                                             int32_t pad_left, int32_t mode, const int32_t* out_multiplier,
                                             const int32_t* out_shift, int32_t act_min, int32_t act_max, int32_t dsp)
{
    const int32_t filter_size = filter_h * filter_w * in_c;
    int32_t b, oy, ox, oc, iy, ix, fy, fx, step;

    for (b = 0; b < batches; b++) {
        const int16_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t iy0 = aot_tconv_first(oy, pad_top, stride_h, in_h);
            for (ox = 0; ox < out_w; ox++) {
                const int32_t ix0 = aot_tconv_first(ox, pad_left, stride_w, in_w);
                int16_t* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                /* SMLAD entry point: two output channels per pass share every input load. */
                for (oc = 0; oc < out_c; oc += step) {
                    const int8_t* f_oc = filter + oc * filter_size;
                    struct aot_acc16 acc = {0u, 0u}, acc1 = {0u, 0u};
                    step = dsp && oc + 1 < out_c ? 2 : 1;
                    for (iy = iy0; iy >= 0 && (fy = oy + pad_top - iy * stride_h) < filter_h; iy--) {
                        for (ix = ix0; ix >= 0 && (fx = ox + pad_left - ix * stride_w) < filter_w; ix--) {
                            const int16_t* x = in_b + (iy * in_w + ix) * in_c;
                            const int8_t* w = f_oc + (fy * filter_w + fx) * in_c;
                            if (step == 2) {
                                aot_acc16_dot2_dsp(&acc, &acc1, x, w, w + filter_size, in_c);
                            } else if (dsp) {
                                aot_acc16_dot_dsp(&acc, x, w, in_c);
                            } else {
                                aot_acc16_dot(&acc, mode, x, 1, w, 1, in_c);
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

void aot_transpose_conv_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                            const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max)
{
    transpose_conv_s16_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w,
                            out_c, stride_h, stride_w, pad_top, pad_left, mode, out_multiplier, out_shift, act_min,
                            act_max, 0);
}

void aot_transpose_conv_s16_dsp(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                int32_t act_max)
{
    transpose_conv_s16_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w,
                            out_c, stride_h, stride_w, pad_top, pad_left, mode, out_multiplier, out_shift, act_min,
                            act_max, 1);
}
