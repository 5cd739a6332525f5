/* The int8 depthwise convolution body (NHWC input, [1][fh][fw][out_c] filter), shared by the CRT kernel
 * aot_depthwise_conv2d_s8 and the shape-specialized functions generated for Cortex-M0/M3 (see
 * aot/kernels/requant_s8_inline.h).
 *
 * out[b][oy][ox][oc] (oc = ic * depth_multiplier + m) =
 *     requant(bias[oc] + sum over taps of filter[ky][kx][oc] * v)
 * where v = in[b][iy][ix][ic] + input_offset for taps inside the image and v = pad_fill outside.  TFLite's
 * semantics are input_offset = -input_zero_point and pad_fill = 0 (bias as in the model); the generated code
 * folds the zero point into the bias instead (bias - zp * sum(filter)) and passes input_offset = 0,
 * pad_fill = zp, which is the same sum.
 *
 * Loop order: output pixel, then its channels (contiguous in memory), then the taps.  The output rows and
 * columns whose window lies wholly inside the image are computed without any bounds check, at constant tap
 * offsets from two pointers that advance by one channel; only the border pixels (none without padding) test
 * each filter row and column.  With literal shapes the tap loops unroll and the border code disappears when
 * there is no padding.  bias may be NULL (EXACT requantization only).
 */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_S8_INLINE_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_S8_INLINE_H_

#include <stdint.h>
#include <stddef.h>

#include "aot/kernels/dot_packed_s8_inline.h"
#include "aot/kernels/requant_s8_inline.h"

/* First output index o >= 0 with o * stride - pad >= 0, and one past the last with
 * o * stride - pad + span <= size (span = (filter - 1) * dilation + 1), both clamped to [0, out]. */
AOT_INLINE_BODY int32_t aot_dw_inner_lo(int32_t pad, int32_t stride, int32_t out)
{
    const int32_t lo = (pad + stride - 1) / stride;
    return lo < out ? lo : out;
}

AOT_INLINE_BODY int32_t aot_dw_inner_hi(int32_t pad, int32_t stride, int32_t span, int32_t size, int32_t out)
{
    const int32_t room = size - span + pad; /* o * stride <= room */
    const int32_t hi = room < 0 ? 0 : room / stride + 1;
    return hi < out ? hi : out;
}

/* Taps f in [lo, hi) of a window starting at image coordinate i0 lie inside [0, size). */
AOT_INLINE_BODY int32_t aot_dw_tap_lo(int32_t i0, int32_t dilation, int32_t filter)
{
    const int32_t lo = i0 < 0 ? (-i0 + dilation - 1) / dilation : 0;
    return lo < filter ? lo : filter;
}

AOT_INLINE_BODY int32_t aot_dw_tap_hi(int32_t i0, int32_t dilation, int32_t filter, int32_t size, int32_t lo)
{
    const int32_t hi = size - i0 <= 0 ? 0 : (size - i0 - 1) / dilation + 1;
    return hi < lo ? lo : (hi < filter ? hi : filter);
}

/* Every parameter of the layer, passed down unchanged (literals in the specialized functions). */
#define AOT_DW_ARGS                                                                                                    \
    in_h, in_w, in_c, filter, filter_h, filter_w, depth_multiplier, bias, out_w, stride_w, dilation_h, dilation_w,     \
        pad_left, input_offset, pad_fill, output_offset, requant, out_multiplier, out_second, quant_step, act_min,     \
        act_max
#define AOT_DW_PARAMS                                                                                                  \
    int32_t in_h, int32_t in_w, int32_t in_c, const int8_t *filter, int32_t filter_h, int32_t filter_w,                \
        int32_t depth_multiplier, const int32_t *bias, int32_t out_w, int32_t stride_w, int32_t dilation_h,            \
        int32_t dilation_w, int32_t pad_left, int32_t input_offset, int32_t pad_fill, int32_t output_offset,           \
        int32_t requant, const int32_t *out_multiplier, const int32_t *out_second, int32_t quant_step,                 \
        int32_t act_min, int32_t act_max

/* acc[r] += w[r] * v, r = 0..3. */
AOT_INLINE_BODY void aot_dw_mac4(int32_t* acc, const int8_t* w, int32_t v)
{
    acc[0] += (int32_t)w[0] * v;
    acc[1] += (int32_t)w[1] * v;
    acc[2] += (int32_t)w[2] * v;
    acc[3] += (int32_t)w[3] * v;
#if defined(__GNUC__)
    /* Tap by tap: GCC would otherwise compute the four sums one after the other, keeping every input of the
     * window live (spilled) in between. */
    __asm__ __volatile__("" : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]));
#endif
}

/* Output channels oc..oc+3 (consecutive depth multipliers of one input channel, weights w_c[0..3] of each tap)
 * of one pixel whose first inside tap is x_px, as in aot_dw_run: each input value is loaded once for four
 * multiply-accumulates (9 instructions per 4 MACs instead of 12 on the M0/M3). */
AOT_INLINE_BODY void aot_dw_quad(const int8_t* x_px, const int8_t* w_c, int8_t* out_px, int32_t oc, int32_t unroll,
                                 int32_t fy_lo, int32_t fy_hi, int32_t fx_lo, int32_t fx_hi, AOT_DW_PARAMS)
{
    const int32_t out_c = in_c * depth_multiplier;
    const int32_t row_step = in_w * in_c;
    int32_t acc[4];
    int32_t r, fy, fx;
    (void)in_h;
    (void)filter;
    (void)out_w;
    (void)stride_w;
    (void)pad_left;
    for (r = 0; r < 4; r++) {
        acc[r] = bias != NULL ? bias[oc + r] : 0;
    }
    /* Opaque: otherwise GCC hoists the window's input loads (the same for every quad of one input channel) or
     * its weight loads (the same for every pixel) out of the loops around and spills them all. */
    AOT_OPAQUE(x_px);
    AOT_OPAQUE(w_c);
    if (unroll) {
        AOT_UNROLL
        for (fy = fy_lo; fy < fy_hi; fy++) {
            AOT_UNROLL
            for (fx = fx_lo; fx < fx_hi; fx++) {
                aot_dw_mac4(acc, w_c + (fy * filter_w + fx) * out_c,
                            (int32_t)x_px[(fy - fy_lo) * dilation_h * row_step + (fx - fx_lo) * dilation_w * in_c] +
                                input_offset);
            }
        }
        if (pad_fill != 0) {
            AOT_UNROLL
            for (fy = 0; fy < filter_h; fy++) {
                AOT_UNROLL
                for (fx = 0; fx < filter_w; fx++) {
                    if (fy < fy_lo || fy >= fy_hi || fx < fx_lo || fx >= fx_hi) {
                        aot_dw_mac4(acc, w_c + (fy * filter_w + fx) * out_c, pad_fill);
                    }
                }
            }
        }
    } else {
        /* Run-time tap ranges (border pixels): per filter row, the columns before, inside and after the image
         * as three plain loops (no test per tap). */
        for (fy = 0; fy < filter_h; fy++) {
            const int8_t* w_row = w_c + fy * filter_w * out_c;
            const int32_t in_lo = fy >= fy_lo && fy < fy_hi ? fx_lo : filter_w;
            const int32_t in_hi = fy >= fy_lo && fy < fy_hi ? fx_hi : filter_w;
            for (fx = 0; fx < in_lo; fx++) {
                aot_dw_mac4(acc, w_row + fx * out_c, pad_fill);
            }
            for (; fx < in_hi; fx++) {
                aot_dw_mac4(acc, w_row + fx * out_c,
                            (int32_t)x_px[(fy - fy_lo) * dilation_h * row_step + (fx - fx_lo) * dilation_w * in_c] +
                                input_offset);
            }
            for (; fx < filter_w; fx++) {
                aot_dw_mac4(acc, w_row + fx * out_c, pad_fill);
            }
        }
    }
    for (r = 0; r < 4; r++) {
        out_px[oc + r] = aot_requant_s8(acc[r], requant, out_multiplier[(oc + r) * quant_step],
                                        out_second[(oc + r) * quant_step], output_offset, act_min, act_max);
    }
}

/* The channel loop of aot_dw_xpair_channels stays a loop: peeled for a literal channel count, its unrolled taps
 * would keep many channels' sums live at once (spilled: 928 B of stack for a 0.25-width MobileNet). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define AOT_DW_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define AOT_DW_NO_UNROLL
#endif

/* 2 * pairs consecutive inside pixels of one row (every tap inside the image), depth multiplier 1, input zero point
 * folded into the bias (input_offset 0: every tap value is an int8 value): two horizontally adjacent pixels of
 * one channel share each tap's weight, so one 64-bit multiply-accumulate of X = x0 + x1 * 2^23 by the weight
 * (SMLAL on the M3) does both, as in aot/kernels/conv2d_s8_xpair_inline.h.  A window of at most AOT_PACK_SAFE_RUN
 * taps keeps pixel 0's sum inside its lane (the compiler asks for pairs only then).  `pairs` (1 or 2, a literal)
 * pairs of pixels per channel visit: two share the channel's weight, multiplier and bias loads and, with a
 * literal stride, the input columns the windows have in common.  x_px: the first pixel's window corner, channel 0;
 * out_px: its output. */
AOT_INLINE_BODY void aot_dw_xpair_channels(const int8_t* x_px, int8_t* out_px, int32_t pairs, AOT_DW_PARAMS)
{
    const int32_t row_step = in_w * in_c;
    const int32_t px_step = stride_w * in_c;
    int32_t c, fy, fx;
    (void)in_h;
    (void)depth_multiplier;
    (void)out_w;
    (void)pad_left;
    (void)input_offset;
    (void)pad_fill;
    AOT_DW_NO_UNROLL
    for (c = 0; c < in_c; c++) {
        const int8_t* x_c = x_px + c;
        const int8_t* w_c = filter + c;
        int64_t a0 = AOT_PACK_BIAS, a1 = AOT_PACK_BIAS;
        int32_t s[4], b, k, mult, second;
        /* Opaque: otherwise GCC hoists loads shared by the channels' loops out of them and spills them. */
        AOT_OPAQUE(x_c);
        AOT_OPAQUE(w_c);
        AOT_UNROLL
        for (fy = 0; fy < filter_h; fy++) {
            AOT_UNROLL
            for (fx = 0; fx < filter_w; fx++) {
                const int32_t at = fy * dilation_h * row_step + fx * dilation_w * in_c;
                const int32_t w = w_c[(fy * filter_w + fx) * in_c];
                a0 +=
                    (int64_t)((int32_t)x_c[at] + (int32_t)((uint32_t)(int32_t)x_c[at + px_step] << AOT_PACK_SHIFT)) * w;
                if (pairs == 2) {
                    a1 += (int64_t)((int32_t)x_c[at + 2 * px_step] +
                                    (int32_t)((uint32_t)(int32_t)x_c[at + 3 * px_step] << AOT_PACK_SHIFT)) *
                          w;
                }
            }
        }
        aot_pack_split(a0, &s[0], &s[1]);
        aot_pack_split(a1, &s[2], &s[3]);
        /* Into locals first: the int8 stores may alias them, which would reload them for every pixel. */
        b = bias != NULL ? bias[c] : 0;
        mult = out_multiplier[c * quant_step];
        second = out_second[c * quant_step];
        AOT_UNROLL
        for (k = 0; k < 2 * pairs; k++) {
            out_px[k * in_c + c] = aot_requant_s8(b + s[k], requant, mult, second, output_offset, act_min, act_max);
        }
    }
}

/* The pixels [ox_begin, ox_end) of aot_dw_run's inside run, four or two at a time (aot_dw_xpair_channels); an odd
 * last pixel takes the plain path (the caller). */
AOT_INLINE_BODY void aot_dw_xpairs(const int8_t* in_b, int8_t* out_row, int32_t iy0, int32_t ox_begin, int32_t ox_end,
                                   AOT_DW_PARAMS)
{
    const int32_t row_step = in_w * in_c;
    int32_t ox = ox_begin;
    for (; ox + 3 < ox_end; ox += 4) {
        aot_dw_xpair_channels(in_b + iy0 * row_step + (ox * stride_w - pad_left) * in_c, out_row + ox * in_c, 2,
                              AOT_DW_ARGS);
    }
    if (ox + 1 < ox_end) {
        aot_dw_xpair_channels(in_b + iy0 * row_step + (ox * stride_w - pad_left) * in_c, out_row + ox * in_c, 1,
                              AOT_DW_ARGS);
    }
}

/* Output pixels [ox_begin, ox_end) of one row (window top at image row iy0), all with the taps
 * [fy_lo, fy_hi) x [fx_lo, fx_hi) inside the image (the same for the whole run); the other taps count as
 * pad_fill.  With literal ranges the tap loops unroll into constant offsets from one input pointer. */
AOT_INLINE_BODY void aot_dw_run(const int8_t* in_b, int8_t* out_row, int32_t iy0, int32_t ox_begin, int32_t ox_end,
                                int32_t fy_lo, int32_t fy_hi, int32_t fx_lo, int32_t fx_hi, AOT_DW_PARAMS)
{
    const int32_t out_c = in_c * depth_multiplier;
    const int32_t row_step = in_w * in_c;
    const int32_t unroll = AOT_CONSTANT(fy_lo) && AOT_CONSTANT(fy_hi) && AOT_CONSTANT(fx_lo) && AOT_CONSTANT(fx_hi) &&
                           AOT_CONSTANT(filter_h) && AOT_CONSTANT(filter_w);
    /* A literal depth multiplier that is a multiple of 4 (e.g. one input channel feeding 8 filters): four
     * output channels per input load (aot_dw_quad). */
    const int32_t quad = AOT_CONSTANT(depth_multiplier) && depth_multiplier % 4 == 0;
    int32_t ox, ic, m, fy, fx;
    (void)in_h;
    (void)out_w;
    for (ox = ox_begin; ox < ox_end; ox++) {
        const int32_t ix0 = ox * stride_w - pad_left;
        /* Index of the first inside tap of the window (channel 0); taps are at fixed offsets from it. */
        const int32_t first = (iy0 + fy_lo * dilation_h) * row_step + (ix0 + fx_lo * dilation_w) * in_c;
        int8_t* out_px = out_row + ox * out_c;
        const int8_t* w_c = filter;
        int32_t oc = 0;
        for (ic = 0; ic < in_c; ic++) {
            for (m = 0; m < depth_multiplier; m++) {
                int32_t acc = bias != NULL ? bias[oc] : 0;
                if (quad) {
                    aot_dw_quad(in_b + first + ic, w_c, out_px, oc, unroll, fy_lo, fy_hi, fx_lo, fx_hi, AOT_DW_ARGS);
                    w_c += 4;
                    oc += 4;
                    m += 3;
                    continue;
                }
                if (unroll) {
                    AOT_UNROLL
                    for (fy = fy_lo; fy < fy_hi; fy++) {
                        AOT_UNROLL
                        for (fx = fx_lo; fx < fx_hi; fx++) {
                            acc += (int32_t)w_c[(fy * filter_w + fx) * out_c] *
                                   ((int32_t)in_b[first + ic + (fy - fy_lo) * dilation_h * row_step +
                                                  (fx - fx_lo) * dilation_w * in_c] +
                                    input_offset);
                        }
                    }
                    if (pad_fill != 0) {
                        AOT_UNROLL
                        for (fy = 0; fy < filter_h; fy++) {
                            AOT_UNROLL
                            for (fx = 0; fx < filter_w; fx++) {
                                if (fy < fy_lo || fy >= fy_hi || fx < fx_lo || fx >= fx_hi) {
                                    acc += (int32_t)w_c[(fy * filter_w + fx) * out_c] * pad_fill;
                                }
                            }
                        }
                    }
                } else {
                    for (fy = 0; fy < filter_h; fy++) {
                        const int32_t row_in = fy >= fy_lo && fy < fy_hi;
                        for (fx = 0; fx < filter_w; fx++) {
                            const int32_t v = row_in && fx >= fx_lo && fx < fx_hi
                                                  ? (int32_t)in_b[first + ic + (fy - fy_lo) * dilation_h * row_step +
                                                                  (fx - fx_lo) * dilation_w * in_c] +
                                                        input_offset
                                                  : pad_fill;
                            acc += (int32_t)w_c[(fy * filter_w + fx) * out_c] * v;
                        }
                    }
                }
                out_px[oc] = aot_requant_s8(acc, requant, out_multiplier[oc * quant_step], out_second[oc * quant_step],
                                            output_offset, act_min, act_max);
                w_c++;
                oc++;
            }
        }
    }
}

/* One output row: its taps rows [fy_lo, fy_hi) are inside the image.  With `peel` (a literal) every border
 * column is its own unrolled run; otherwise the border columns share one run with run-time tap ranges. */
AOT_INLINE_BODY void aot_dw_row(const int8_t* in_b, int8_t* out_row, int32_t iy0, int32_t fy_lo, int32_t fy_hi,
                                int32_t x_lo, int32_t x_hi, int32_t peel, int32_t xpair, AOT_DW_PARAMS)
{
    int32_t ox;
    if (peel) {
        AOT_UNROLL
        for (ox = 0; ox < x_lo; ox++) {
            const int32_t ix0 = ox * stride_w - pad_left;
            const int32_t fx_lo = aot_dw_tap_lo(ix0, dilation_w, filter_w);
            aot_dw_run(in_b, out_row, iy0, ox, ox + 1, fy_lo, fy_hi, fx_lo,
                       aot_dw_tap_hi(ix0, dilation_w, filter_w, in_w, fx_lo), AOT_DW_ARGS);
        }
        if (xpair && fy_lo == 0 && fy_hi == filter_h) {
            aot_dw_xpairs(in_b, out_row, iy0, x_lo, x_hi, AOT_DW_ARGS);
            if ((x_hi - x_lo) % 2 != 0) {
                aot_dw_run(in_b, out_row, iy0, x_hi - 1, x_hi, fy_lo, fy_hi, 0, filter_w, AOT_DW_ARGS);
            }
        } else {
            aot_dw_run(in_b, out_row, iy0, x_lo, x_hi, fy_lo, fy_hi, 0, filter_w, AOT_DW_ARGS);
        }
        AOT_UNROLL
        for (ox = x_hi; ox < out_w; ox++) {
            const int32_t ix0 = ox * stride_w - pad_left;
            const int32_t fx_lo = aot_dw_tap_lo(ix0, dilation_w, filter_w);
            aot_dw_run(in_b, out_row, iy0, ox, ox + 1, fy_lo, fy_hi, fx_lo,
                       aot_dw_tap_hi(ix0, dilation_w, filter_w, in_w, fx_lo), AOT_DW_ARGS);
        }
    } else {
        for (ox = 0; ox < out_w; ox++) {
            if (ox == x_lo && fy_lo == 0 && fy_hi == filter_h) {
                if (xpair) {
                    aot_dw_xpairs(in_b, out_row, iy0, x_lo, x_hi, AOT_DW_ARGS);
                    if ((x_hi - x_lo) % 2 != 0) {
                        aot_dw_run(in_b, out_row, iy0, x_hi - 1, x_hi, 0, filter_h, 0, filter_w, AOT_DW_ARGS);
                    }
                } else {
                    aot_dw_run(in_b, out_row, iy0, x_lo, x_hi, 0, filter_h, 0, filter_w, AOT_DW_ARGS);
                }
                ox = x_hi;
                if (ox >= out_w) {
                    break;
                }
            }
            {
                const int32_t ix0 = ox * stride_w - pad_left;
                const int32_t fx_lo = aot_dw_tap_lo(ix0, dilation_w, filter_w);
                aot_dw_run(in_b, out_row, iy0, ox, ox + 1, fy_lo, fy_hi, fx_lo,
                           aot_dw_tap_hi(ix0, dilation_w, filter_w, in_w, fx_lo), AOT_DW_ARGS);
            }
        }
    }
}

#define AOT_DW_XPAIR_MIN_OUTPUTS 65536

/* The whole layer.  requant: AOT_REQUANT_EXACT (out_second = TFLite shifts) or AOT_REQUANT_SHORT (out_second =
 * add constants); quant_step 1 (per channel) or 0 (element 0 for every channel).  peel: unroll every border
 * row and column separately (for literal shapes with small padding; more code, no run-time tap checks). */
AOT_INLINE_BODY void aot_depthwise_conv2d_s8_body(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                                  int32_t in_c, const int8_t* filter, int32_t filter_h,
                                                  int32_t filter_w, int32_t depth_multiplier, const int32_t* bias,
                                                  int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                                                  int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                                  int32_t pad_top, int32_t pad_left, int32_t input_offset,
                                                  int32_t pad_fill, int32_t output_offset, int32_t requant,
                                                  const int32_t* out_multiplier, const int32_t* out_second,
                                                  int32_t quant_step, int32_t act_min, int32_t act_max, int32_t peel)
{
    const int32_t out_c = in_c * depth_multiplier;
    /* Bit 1 of peel: the inside pixels two by two on packed inputs (aot_dw_xpairs); only the M3's specialized
     * code asks for it, with depth multiplier 1, input_offset 0 and at most AOT_PACK_SAFE_RUN taps.
     * The pairs are a second inlined form of every layer's inside pixels (0.3-0.9 KB a layer): not at -Os, and at
     * -O2 only where a layer's outputs (pixels x channels, literal) are at least AOT_DW_XPAIR_MIN_OUTPUTS, where
     * their speed pays for their code (the 224x224 MobileNet v2's early layers; not the 96x96 MobileNets' or
     * KWS's, 8-37 K outputs, which stay well inside their speed bar without them). */
#if defined(__OPTIMIZE_SIZE__)
    const int32_t xpair = 0;
#else
    const int32_t xpair =
        ((peel >> 1) & 1) && AOT_CONSTANT(out_h * out_w * out_c) && out_h * out_w * out_c >= AOT_DW_XPAIR_MIN_OUTPUTS;
#endif
    /* Inner ranges [lo, hi), empty (hi = lo) when no window fits inside the input (an input smaller than the
     * filter, padded): every pixel is then a border one, visited once. */
    const int32_t y_lo = aot_dw_inner_lo(pad_top, stride_h, out_h);
    const int32_t y_hi0 = aot_dw_inner_hi(pad_top, stride_h, (filter_h - 1) * dilation_h + 1, in_h, out_h);
    const int32_t y_hi = y_hi0 < y_lo ? y_lo : y_hi0;
    const int32_t x_lo = aot_dw_inner_lo(pad_left, stride_w, out_w);
    const int32_t x_hi0 = aot_dw_inner_hi(pad_left, stride_w, (filter_w - 1) * dilation_w + 1, in_w, out_w);
    const int32_t x_hi = x_hi0 < x_lo ? x_lo : x_hi0;
    int32_t b, oy;

    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        int8_t* out_b = output + b * out_h * out_w * out_c;
        if (peel & 1) {
            AOT_UNROLL
            for (oy = 0; oy < y_lo; oy++) {
                const int32_t iy0 = oy * stride_h - pad_top;
                const int32_t fy_lo = aot_dw_tap_lo(iy0, dilation_h, filter_h);
                aot_dw_row(in_b, out_b + oy * out_w * out_c, iy0, fy_lo,
                           aot_dw_tap_hi(iy0, dilation_h, filter_h, in_h, fy_lo), x_lo, x_hi, 1, xpair, AOT_DW_ARGS);
            }
            for (oy = y_lo; oy < y_hi; oy++) {
                aot_dw_row(in_b, out_b + oy * out_w * out_c, oy * stride_h - pad_top, 0, filter_h, x_lo, x_hi, 1, xpair,
                           AOT_DW_ARGS);
            }
            AOT_UNROLL
            for (oy = y_hi; oy < out_h; oy++) {
                const int32_t iy0 = oy * stride_h - pad_top;
                const int32_t fy_lo = aot_dw_tap_lo(iy0, dilation_h, filter_h);
                aot_dw_row(in_b, out_b + oy * out_w * out_c, iy0, fy_lo,
                           aot_dw_tap_hi(iy0, dilation_h, filter_h, in_h, fy_lo), x_lo, x_hi, 1, xpair, AOT_DW_ARGS);
            }
        } else {
            for (oy = 0; oy < out_h; oy++) {
                const int32_t iy0 = oy * stride_h - pad_top;
                const int32_t fy_lo = aot_dw_tap_lo(iy0, dilation_h, filter_h);
                aot_dw_row(in_b, out_b + oy * out_w * out_c, iy0, fy_lo,
                           aot_dw_tap_hi(iy0, dilation_h, filter_h, in_h, fy_lo), x_lo, x_hi, 0, xpair, AOT_DW_ARGS);
            }
        }
    }
}

#undef AOT_DW_NO_UNROLL
#undef AOT_DW_ARGS
#undef AOT_DW_PARAMS

#endif /* AOT_KERNELS_DEPTHWISE_CONV2D_S8_INLINE_H_ */
