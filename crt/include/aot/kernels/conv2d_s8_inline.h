/* The int8 2-D convolution body (NHWC input, OHWI filter, filter depth = input channels), used by the
 * shape-specialized functions generated for Cortex-M0/M3 (see aot/kernels/requant_s8_inline.h); grouped
 * convolutions keep the CRT kernel aot_conv2d_s8.
 *
 * out[b][oy][ox][oc] = requant(bias[oc] + sum over taps of filter[oc][ky][kx][c] * v), v as in
 * aot/kernels/depthwise_conv2d_s8_inline.h (input + input_offset inside the image, pad_fill outside; the
 * generated code folds the zero point into the bias and passes input_offset = 0, pad_fill = zp).
 *
 * Per output pixel the taps inside the image form, per filter row, one contiguous run of
 * (inside columns) * in_c inputs and weights (without column dilation), so four output channels at a time are
 * one aot_dot4_s8 per filter row; with literal shapes the interior run length and row count are constants.
 * Border pixels add pad_fill times the weights of their outside taps.
 */
#ifndef AOT_KERNELS_CONV2D_S8_INLINE_H_
#define AOT_KERNELS_CONV2D_S8_INLINE_H_

#include <stddef.h>
#include <stdint.h>

#include "aot/kernels/depthwise_conv2d_s8_inline.h"
#include "aot/kernels/dot_s8_inline.h"

/* acc[0..rows) (rows 1 or 4 output channels, weights `taps` apart from w) += the window's taps inside the image
 * (rows [fy_lo, fy_hi), columns [fx_lo, fx_hi)) and pad_fill times the weights of the others. */
AOT_INLINE_BODY void aot_conv_window(const int8_t* in_b, const int8_t* w, int32_t rows, int32_t iy0, int32_t ix0,
                                     int32_t fy_lo, int32_t fy_hi, int32_t fx_lo, int32_t fx_hi, int32_t in_w,
                                     int32_t in_c, int32_t filter_h, int32_t filter_w, int32_t dilation_h,
                                     int32_t dilation_w, int32_t input_offset, int32_t pad_fill, int32_t* acc)
{
    const int32_t taps = filter_h * filter_w * in_c;
    /* Without column dilation a filter row's inside taps are one run; otherwise one run per tap. */
    const int32_t runs = dilation_w == 1 ? 1 : fx_hi - fx_lo;
    const int32_t run = dilation_w == 1 ? (fx_hi - fx_lo) * in_c : in_c;
    int32_t fy, fx, k;
    for (fy = fy_lo; fy < fy_hi; fy++) {
        const int8_t* x_row = in_b + ((iy0 + fy * dilation_h) * in_w + ix0 + fx_lo * dilation_w) * in_c;
        const int8_t* w_row = w + (fy * filter_w + fx_lo) * in_c;
        for (k = 0; k < runs; k++) {
            if (rows == 4) {
                aot_dot4_s8(x_row + k * dilation_w * in_c, w_row + k * in_c, taps, run, input_offset, acc);
            } else {
                acc[0] = aot_dot1_s8(x_row + k * dilation_w * in_c, w_row + k * in_c, run, input_offset, acc[0]);
            }
        }
    }
    if (pad_fill != 0 && (fy_lo != 0 || fy_hi != filter_h || fx_lo != 0 || fx_hi != filter_w)) {
        int32_t r, c;
        for (fy = 0; fy < filter_h; fy++) {
            for (fx = 0; fx < filter_w; fx++) {
                if (fy >= fy_lo && fy < fy_hi && fx >= fx_lo && fx < fx_hi) {
                    continue;
                }
                for (r = 0; r < rows; r++) {
                    const int8_t* w_tap = w + r * taps + (fy * filter_w + fx) * in_c;
                    int32_t sum = 0;
                    for (c = 0; c < in_c; c++) {
                        sum += w_tap[c];
                    }
                    acc[r] += sum * pad_fill;
                }
            }
        }
    }
}

/* Layer parameters the per-channel step passes down unchanged (literals in the specialized functions). */
#define AOT_CONV_ARGS                                                                                                  \
    in_w, in_c, filter_h, filter_w, dilation_h, dilation_w, input_offset, pad_fill, output_offset, requant,            \
        out_multiplier, out_second, quant_step, act_min, act_max

/* Output channels [oc, oc + rows) (rows 1 or 4, a literal) of one pixel. */
AOT_INLINE_BODY void aot_conv_channels(const int8_t* in_b, const int8_t* filter, const int32_t* bias, int8_t* out_px,
                                       int32_t oc, int32_t rows, int32_t iy0, int32_t ix0, int32_t fy_lo, int32_t fy_hi,
                                       int32_t fx_lo, int32_t fx_hi, int32_t in_w, int32_t in_c, int32_t filter_h,
                                       int32_t filter_w, int32_t dilation_h, int32_t dilation_w, int32_t input_offset,
                                       int32_t pad_fill, int32_t output_offset, int32_t requant,
                                       const int32_t* out_multiplier, const int32_t* out_second, int32_t quant_step,
                                       int32_t act_min, int32_t act_max)
{
    int32_t acc[4];
    int32_t r;
    for (r = 0; r < rows; r++) {
        acc[r] = bias != NULL ? bias[oc + r] : 0;
    }
    aot_conv_window(in_b, filter + oc * filter_h * filter_w * in_c, rows, iy0, ix0, fy_lo, fy_hi, fx_lo, fx_hi, in_w,
                    in_c, filter_h, filter_w, dilation_h, dilation_w, input_offset, pad_fill, acc);
    aot_requant_rows_s8(acc, rows, out_px + oc, oc, requant, out_multiplier, out_second, quant_step, output_offset,
                        act_min, act_max);
}

/* Output channels [oc, oc + 4) of two pixels of one row whose windows both lie wholly inside the image (window
 * columns ix0 and ix0 + stride_w), without column dilation: one aot_dot4x2_s8 per filter row. */
AOT_INLINE_BODY void aot_conv_pair4(const int8_t* in_b, const int8_t* filter, const int32_t* bias, int8_t* out_px,
                                    int32_t oc, int32_t iy0, int32_t ix0, int32_t stride_w, int32_t out_c, int32_t in_w,
                                    int32_t in_c, int32_t filter_h, int32_t filter_w, int32_t dilation_h,
                                    int32_t input_offset, int32_t output_offset, int32_t requant,
                                    const int32_t* out_multiplier, const int32_t* out_second, int32_t quant_step,
                                    int32_t act_min, int32_t act_max)
{
    const int32_t taps = filter_h * filter_w * in_c;
    const int8_t* w = filter + oc * taps;
    int32_t acc[8];
    int32_t r, fy;
    for (r = 0; r < 4; r++) {
        acc[r] = bias != NULL ? bias[oc + r] : 0;
        acc[4 + r] = acc[r];
    }
    for (fy = 0; fy < filter_h; fy++) {
        aot_dot4x2_s8(in_b + ((iy0 + fy * dilation_h) * in_w + ix0) * in_c, stride_w * in_c, w + fy * filter_w * in_c,
                      taps, filter_w * in_c, input_offset, acc);
    }
    aot_requant_rows_s8(acc, 4, out_px + oc, oc, requant, out_multiplier, out_second, quant_step, output_offset,
                        act_min, act_max);
    aot_requant_rows_s8(acc + 4, 4, out_px + out_c + oc, oc, requant, out_multiplier, out_second, quant_step,
                        output_offset, act_min, act_max);
}

/* The whole layer.  requant, out_second and quant_step as in aot_depthwise_conv2d_s8_body. */
AOT_INLINE_BODY void aot_conv2d_s8_body(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                        const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                        int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                        int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                        int32_t pad_left, int32_t input_offset, int32_t pad_fill, int32_t output_offset,
                                        int32_t requant, const int32_t* out_multiplier, const int32_t* out_second,
                                        int32_t quant_step, int32_t act_min, int32_t act_max)
{
    const int32_t out_c4 = out_c & ~3;
    int32_t b, oy, ox, oc;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t iy0 = oy * stride_h - pad_top;
            const int32_t fy_lo = aot_dw_tap_lo(iy0, dilation_h, filter_h);
            const int32_t fy_hi = aot_dw_tap_hi(iy0, dilation_h, filter_h, in_h, fy_lo);
            for (ox = 0; ox < out_w; ox++) {
                const int32_t ix0 = ox * stride_w - pad_left;
                const int32_t fx_lo = aot_dw_tap_lo(ix0, dilation_w, filter_w);
                const int32_t fx_hi = aot_dw_tap_hi(ix0, dilation_w, filter_w, in_w, fx_lo);
                int8_t* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                /* Specialized layers (literal shapes): two pixels at a time where both windows are inside. */
                if (AOT_CONSTANT(in_c) && AOT_CONSTANT(filter_w) && dilation_w == 1 && out_c4 != 0 && ox + 1 < out_w &&
                    fy_lo == 0 && fy_hi == filter_h && ix0 >= 0 && ix0 + stride_w + filter_w <= in_w) {
                    for (oc = 0; oc < out_c4; oc += 4) {
                        aot_conv_pair4(in_b, filter, bias, out_px, oc, iy0, ix0, stride_w, out_c, in_w, in_c, filter_h,
                                       filter_w, dilation_h, input_offset, output_offset, requant, out_multiplier,
                                       out_second, quant_step, act_min, act_max);
                    }
                    for (; oc < out_c; oc++) {
                        aot_conv_channels(in_b, filter, bias, out_px, oc, 1, iy0, ix0, 0, filter_h, 0, filter_w,
                                          AOT_CONV_ARGS);
                        aot_conv_channels(in_b, filter, bias, out_px + out_c, oc, 1, iy0, ix0 + stride_w, 0, filter_h,
                                          0, filter_w, AOT_CONV_ARGS);
                    }
                    ox++;
                    continue;
                }
                for (oc = 0; oc < out_c4; oc += 4) {
                    aot_conv_channels(in_b, filter, bias, out_px, oc, 4, iy0, ix0, fy_lo, fy_hi, fx_lo, fx_hi,
                                      AOT_CONV_ARGS);
                }
                for (; oc < out_c; oc++) {
                    aot_conv_channels(in_b, filter, bias, out_px, oc, 1, iy0, ix0, fy_lo, fy_hi, fx_lo, fx_hi,
                                      AOT_CONV_ARGS);
                }
            }
        }
    }
}

#undef AOT_CONV_ARGS

#endif /* AOT_KERNELS_CONV2D_S8_INLINE_H_ */
