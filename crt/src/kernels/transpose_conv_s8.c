/* int8 per-channel TRANSPOSE_CONV, gathered per output pixel (aot/kernels/transpose_conv.h). */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/transpose_conv.h"

#include "aot/requant.h"
#include "transpose_conv_taps.h"

void aot_transpose_conv_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                           int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                           int32_t act_min, int32_t act_max)
{
    int32_t b, oy, ox, oc, iy, ix, fy, fx, c;

    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t iy0 = aot_tconv_first(oy, pad_top, stride_h, in_h);
            for (ox = 0; ox < out_w; ox++) {
                const int32_t ix0 = aot_tconv_first(ox, pad_left, stride_w, in_w);
                int8_t* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                for (oc = 0; oc < out_c; oc++) {
                    const int8_t* f_oc = filter + oc * filter_h * filter_w * in_c;
                    /* Unsigned: the int32 sum wraps as TFLite's accumulator does. */
                    uint32_t acc = bias != NULL ? (uint32_t)bias[oc] : 0u;
                    int32_t v;
                    for (iy = iy0; iy >= 0 && (fy = oy + pad_top - iy * stride_h) < filter_h; iy--) {
                        for (ix = ix0; ix >= 0 && (fx = ox + pad_left - ix * stride_w) < filter_w; ix--) {
                            const int8_t* in_px = in_b + (iy * in_w + ix) * in_c;
                            const int8_t* f_px = f_oc + (fy * filter_w + fx) * in_c;
                            for (c = 0; c < in_c; c++) {
                                acc += (uint32_t)(((int32_t)in_px[c] + input_offset) * (int32_t)f_px[c]);
                            }
                        }
                    }
                    v = aot_multiply_by_quantized_multiplier((int32_t)acc, out_multiplier[oc], out_shift[oc]);
                    v += output_offset;
                    v = v < act_min ? act_min : v;
                    v = v > act_max ? act_max : v;
                    out_px[oc] = (int8_t)v;
                }
            }
        }
    }
}
