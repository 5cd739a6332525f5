/* The int8 2-D convolution body on packed weights (two output channels per 32-bit word, aot/kernels/
 * dot_packed_s8_inline.h), used by the shape-specialized functions generated for Cortex-M0/M3 where the compiler
 * proves the packed sums exact (compiler/ops/common/packed.py); the other layers keep aot/kernels/conv2d_s8_inline.h.
 * Also runs a DEPTHWISE_CONV_2D with one input channel (each output channel is a convolution of that channel).
 *
 * Same arithmetic and arguments as aot_conv2d_s8_body with the input zero point folded into the bias (taps outside
 * the image count as pad_fill), and optionally a residual ADD fused in (aot/kernels/conv2d.h: every output element
 * becomes the ADD of its clamped value and residual[i], residual read just before out[i] is stored).  Output
 * channels go four at a time (a group, its last one zero-padded in the weights); two neighbouring pixels whose
 * windows lie inside the image go together (aot_pdot4x2_s8: one pass over the weights in C, two passes of the asm
 * loop on Thumb-2).
 */
#ifndef AOT_KERNELS_CONV2D_S8_PACKED_INLINE_H_
#define AOT_KERNELS_CONV2D_S8_PACKED_INLINE_H_

#include <stddef.h>
#include <stdint.h>

#include "aot/kernels/add_s8_elem_inline.h"
#include "aot/kernels/depthwise_conv2d_s8_inline.h"
#include "aot/kernels/dot_packed_s8_inline.h"

/* a[j] += fill * w[2 d + j] for d < n: taps outside the image, whose value is the zero point. */
AOT_INLINE_BODY void aot_pfill4_s8(int32_t fill, const int32_t* w, int32_t n, int64_t* a)
{
    int64_t a0 = a[0], a1 = a[1];
    int32_t d;
    for (d = 0; d < n; d++) {
        a0 += (int64_t)fill * w[0];
        a1 += (int64_t)fill * w[1];
        w += 2;
    }
    a[0] = a0;
    a[1] = a1;
}

/* a[0..2) += one group's taps of one window: the inside taps (rows [fy_lo, fy_hi), columns [fx_lo, fx_hi)) and
 * pad_fill times the weights of the others, filter row by filter row (each row: up to three runs, no per-tap
 * test). */
AOT_INLINE_BODY void aot_pconv_window(const int8_t* in_b, const int32_t* w, int32_t iy0, int32_t ix0, int32_t fy_lo,
                                      int32_t fy_hi, int32_t fx_lo, int32_t fx_hi, int32_t in_w, int32_t in_c,
                                      int32_t filter_h, int32_t filter_w, int32_t dilation_h, int32_t dilation_w,
                                      int32_t pad_fill, int64_t* a)
{
    const int32_t row = filter_w * in_c;
    int32_t fy, k;
    for (fy = 0; fy < filter_h; fy++) {
        const int32_t* w_row = w + 2 * fy * row;
        const int8_t* x_row;
        if (fy < fy_lo || fy >= fy_hi) {
            if (pad_fill != 0) {
                aot_pfill4_s8(pad_fill, w_row, row, a);
            }
            continue;
        }
        x_row = in_b + ((iy0 + fy * dilation_h) * in_w + ix0 + fx_lo * dilation_w) * in_c;
        if (pad_fill != 0) {
            aot_pfill4_s8(pad_fill, w_row, fx_lo * in_c, a);
            aot_pfill4_s8(pad_fill, w_row + 2 * fx_hi * in_c, (filter_w - fx_hi) * in_c, a);
        }
        if (dilation_w == 1) {
            aot_pdot4_s8(x_row, w_row + 2 * fx_lo * in_c, (fx_hi - fx_lo) * in_c, a);
        } else {
            for (k = 0; k < fx_hi - fx_lo; k++) {
                aot_pdot4_s8(x_row + k * dilation_w * in_c, w_row + 2 * (fx_lo + k) * in_c, in_c, a);
            }
        }
    }
}

/* Requantizes (and with a residual, adds) one group's `rows` outputs of one pixel at element index px * out_c. */
AOT_INLINE_BODY void aot_pconv_store(const int64_t* a, int32_t rows, const int32_t* bias, int8_t* output, int32_t base,
                                     int32_t oc, int32_t requant, const int32_t* out_multiplier,
                                     const int32_t* out_second, int32_t quant_step, int32_t output_offset,
                                     int32_t act_min, int32_t act_max, const int8_t* residual,
                                     const struct aot_add_s8_params* add)
{
    int8_t v[4];
    int32_t r;
    if (residual == NULL) {
        aot_pack_requant4(a, rows, bias, output + base + oc, oc, requant, out_multiplier, out_second, quant_step,
                          output_offset, act_min, act_max);
        return;
    }
    aot_pack_requant4(a, rows, bias, v, oc, requant, out_multiplier, out_second, quant_step, output_offset, act_min,
                      act_max);
    for (r = 0; r < rows; r++) {
        output[base + oc + r] = (int8_t)aot_add_s8_elem_inline(v[r], residual[base + oc + r], add);
    }
}

/* The whole layer; filter is the packed layout (ceil(out_c / 4) groups of 2 * filter_h * filter_w * in_c words).
 * residual / add: NULL without a fused ADD. */
AOT_INLINE_BODY void aot_conv2d_s8_packed_body(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                               int32_t in_c, const int32_t* filter, int32_t filter_h, int32_t filter_w,
                                               const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                               int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                                               int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t pad_fill,
                                               int32_t output_offset, int32_t requant, const int32_t* out_multiplier,
                                               const int32_t* out_second, int32_t quant_step, int32_t act_min,
                                               int32_t act_max, const int8_t* residual,
                                               const struct aot_add_s8_params* add)
{
    const int32_t taps = filter_h * filter_w * in_c;
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
                const int32_t base = ((b * out_h + oy) * out_w + ox) * out_c;
                if (dilation_w == 1 && ox + 1 < out_w && fy_lo == 0 && fy_hi == filter_h && ix0 >= 0 &&
                    ix0 + stride_w + filter_w <= in_w) {
                    for (oc = 0; oc < out_c; oc += 4) {
                        const int32_t* w = filter + oc / 4 * 2 * taps;
                        const int32_t rows = out_c - oc < 4 ? out_c - oc : 4;
                        int64_t a[4] = {AOT_PACK_BIAS, AOT_PACK_BIAS, AOT_PACK_BIAS, AOT_PACK_BIAS};
                        int32_t fy;
                        for (fy = 0; fy < filter_h; fy++) {
                            aot_pdot4x2_s8(in_b + ((iy0 + fy * dilation_h) * in_w + ix0) * in_c, stride_w * in_c,
                                           w + 2 * fy * filter_w * in_c, filter_w * in_c, a);
                        }
                        aot_pconv_store(a, rows, bias, output, base, oc, requant, out_multiplier, out_second,
                                        quant_step, output_offset, act_min, act_max, residual, add);
                        aot_pconv_store(a + 2, rows, bias, output, base + out_c, oc, requant, out_multiplier,
                                        out_second, quant_step, output_offset, act_min, act_max, residual, add);
                    }
                    ox++;
                    continue;
                }
                for (oc = 0; oc < out_c; oc += 4) {
                    const int32_t rows = out_c - oc < 4 ? out_c - oc : 4;
                    int64_t a[2] = {AOT_PACK_BIAS, AOT_PACK_BIAS};
                    aot_pconv_window(in_b, filter + oc / 4 * 2 * taps, iy0, ix0, fy_lo, fy_hi, fx_lo, fx_hi, in_w, in_c,
                                     filter_h, filter_w, dilation_h, dilation_w, pad_fill, a);
                    aot_pconv_store(a, rows, bias, output, base, oc, requant, out_multiplier, out_second, quant_step,
                                    output_offset, act_min, act_max, residual, add);
                }
            }
        }
    }
}

#endif /* AOT_KERNELS_CONV2D_S8_PACKED_INLINE_H_ */
