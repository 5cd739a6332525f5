/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE), with a portable fallback.
 *
 * NHWC keeps a pixel's channels together, so the kernel vectorises across channels: four channels per vector
 * (VLDRB.S32 widens four int8 inputs and four weights to int32 lanes; MVE has no vector-by-vector VMLA, so a
 * VMUL and a VADD accumulate per lane): eight channels of two horizontally adjacent output pixels per pass, so
 * each weight vector serves both (sixteen channels of an odd last pixel), then the remaining groups of four.  The channel count needs no particular
 * value: the last group is predicated (VCTP).  The filter stays as in the model ([kh][kw][channels]).  The input zero
 * point is folded into the bias by the compiler, so a tap outside the image must read the zero point (the padded
 * band below), and any padding, stride and dilation is exact.
 * Requantization per channel with TFLite's multiplier and shift, vectorised as in mve_s8.h.
 * Output rows whose windows leave the image are computed from a padded band in scratch: the filter_h input rows
 * they read (dilation_h apart), each padded with the zero point to the width the row of windows spans, so every
 * window reads without bounds checks.  Scratch: filter_h * band_w * channels bytes, band_w =
 * (out_w - 1) * stride_w + (filter_w - 1) * dilation_w + 1 (none when no window leaves the image).
 */
#include "aot/kernels/depthwise_conv2d.h"
#include "mve_s8.h"

/* Is input coordinate v inside [0, n)? */
static inline int aot_dw_inside(int32_t v, int32_t n)
{
    return (uint32_t)v < (uint32_t)n;
}

struct aot_dw_geom {
    const int8_t* filter;
    int32_t in_h, in_w, channels, filter_h, filter_w, stride_w, dilation_h, dilation_w, zero_point;
};

#if defined(__ARM_FEATURE_MVE)

/* Four int8 lanes widened to int32: all four (`full`, a constant at each call site) or those of p. */
AOT_ALWAYS_INLINE int32x4_t aot_dw_load(const int8_t* src, mve_pred16_t p, int full)
{
    return full ? vldrbq_s32(src) : vldrbq_z_s32(src, p);
}

/* Channels c..c+3 (predicate p) of output pixels (y0, x0) and, with `two`, (y0, x0 + stride), whose windows are
 * inside the image g: accumulated, then requantized and stored. */
AOT_ALWAYS_INLINE void aot_dw_group(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                    int32_t y0, int32_t x0, int32_t c, mve_pred16_t p, int8_t* out0, int8_t* out1,
                                    int two, int full)
{
    const int32_t ch = g->channels;
    const int8_t* wp = g->filter + c;
    int32x4_t a0 = full ? vldrwq_s32(rq->bias + c) : vldrwq_z_s32(rq->bias + c, p);
    int32x4_t a1 = a0;
    int32_t ky, kx;
    {
        const int8_t* row = in_b + (y0 * g->in_w + x0) * ch + c;
        const int32_t step_x = g->dilation_w * ch;
        const int32_t second = g->stride_w * ch;
        for (ky = 0; ky < g->filter_h; ky++) {
            const int8_t* q = row;
            for (kx = 0; kx < g->filter_w; kx++) {
                const int32x4_t w = aot_dw_load(wp, p, full);
                a0 = vaddq_s32(a0, vmulq_s32(aot_dw_load(q, p, full), w));
                if (two) {
                    a1 = vaddq_s32(a1, vmulq_s32(aot_dw_load(q + second, p, full), w));
                }
                q += step_x;
                wp += ch;
            }
            row += g->dilation_h * g->in_w * ch;
        }
    }
    {
        const int32x4_t m = full ? vldrwq_s32(rq->multiplier + c) : vldrwq_z_s32(rq->multiplier + c, p);
        const int32x4_t sh = full ? vldrwq_s32(rq->shift + c) : vldrwq_z_s32(rq->shift + c, p);
        const int32x4_t lo = vdupq_n_s32(rq->act_min), hi = vdupq_n_s32(rq->act_max);
        int32x4_t v = vaddq_n_s32(aot_mve_requant(a0, m, sh), rq->out_offset);
        v = vminq_s32(vmaxq_s32(v, lo), hi);
        if (full) {
            vstrbq_s32(out0 + c, v);
        } else {
            vstrbq_p_s32(out0 + c, v, p);
        }
        if (two) {
            v = vaddq_n_s32(aot_mve_requant(a1, m, sh), rq->out_offset);
            v = vminq_s32(vmaxq_s32(v, lo), hi);
            if (full) {
                vstrbq_s32(out1 + c, v);
            } else {
                vstrbq_p_s32(out1 + c, v, p);
            }
        }
    }
}

/* Requantizes (multipliers and shifts at m and s), offsets, clamps to [lo, hi] and stores 4 channels at out. */
static inline void aot_dw_out4(int32x4_t acc, const int32_t* m, const int32_t* s, int32_t offset, int32x4_t lo,
                               int32x4_t hi, int8_t* out)
{
    const int32x4_t v = vaddq_n_s32(aot_mve_requant(acc, vldrwq_s32(m), vldrwq_s32(s)), offset);
    vstrbq_s32(out, vminq_s32(vmaxq_s32(v, lo), hi));
}

/* Sixteen channels c..c+15 of one output pixel (window inside g): four int32 vectors, so each tap's input and weight
 * pointers serve four loads at immediate offsets. */
static inline void aot_dw_group16(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                  int32_t y0, int32_t x0, int32_t c, int8_t* out)
{
    const int32_t ch = g->channels;
    const int8_t* wp = g->filter + c;
    const int8_t* row = in_b + (y0 * g->in_w + x0) * ch + c;
    const int32_t step_x = g->dilation_w * ch;
    const int32_t step_y = g->dilation_h * g->in_w * ch;
    int32x4_t a0 = vldrwq_s32(rq->bias + c), a1 = vldrwq_s32(rq->bias + c + 4);
    int32x4_t a2 = vldrwq_s32(rq->bias + c + 8), a3 = vldrwq_s32(rq->bias + c + 12);
    int32_t ky, kx;
    for (ky = 0; ky < g->filter_h; ky++) {
        const int8_t* q = row;
        for (kx = 0; kx < g->filter_w; kx++) {
            a0 = vaddq_s32(a0, vmulq_s32(vldrbq_s32(q), vldrbq_s32(wp)));
            a1 = vaddq_s32(a1, vmulq_s32(vldrbq_s32(q + 4), vldrbq_s32(wp + 4)));
            a2 = vaddq_s32(a2, vmulq_s32(vldrbq_s32(q + 8), vldrbq_s32(wp + 8)));
            a3 = vaddq_s32(a3, vmulq_s32(vldrbq_s32(q + 12), vldrbq_s32(wp + 12)));
            q += step_x;
            wp += ch;
        }
        row += step_y;
    }
    {
        /* Read before the first int8 store, which could alias them for the compiler. */
        const int32_t* m = rq->multiplier + c;
        const int32_t* s = rq->shift + c;
        const int32_t offset = rq->out_offset;
        const int32x4_t lo = vdupq_n_s32(rq->act_min), hi = vdupq_n_s32(rq->act_max);
        out += c;
        aot_dw_out4(a0, m, s, offset, lo, hi, out);
        aot_dw_out4(a1, m + 4, s + 4, offset, lo, hi, out + 4);
        aot_dw_out4(a2, m + 8, s + 8, offset, lo, hi, out + 8);
        aot_dw_out4(a3, m + 12, s + 12, offset, lo, hi, out + 12);
    }
}

/* Eight channels c..c+7 of two horizontally adjacent output pixels (windows inside g): each weight vector serves
 * both pixels. */
static inline void aot_dw_group8x2(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                   int32_t y0, int32_t x0, int32_t c, int8_t* out)
{
    const int32_t ch = g->channels;
    const int8_t* wp = g->filter + c;
    const int8_t* row = in_b + (y0 * g->in_w + x0) * ch + c;
    const int32_t step_x = g->dilation_w * ch;
    const int32_t step_y = g->dilation_h * g->in_w * ch;
    const int32_t second = g->stride_w * ch;
    int32x4_t a0 = vldrwq_s32(rq->bias + c), a1 = vldrwq_s32(rq->bias + c + 4);
    int32x4_t b0 = a0, b1 = a1;
    int32_t ky, kx;
    for (ky = 0; ky < g->filter_h; ky++) {
        const int8_t* q = row;
        for (kx = 0; kx < g->filter_w; kx++) {
            const int32x4_t w0 = vldrbq_s32(wp), w1 = vldrbq_s32(wp + 4);
            a0 = vaddq_s32(a0, vmulq_s32(vldrbq_s32(q), w0));
            a1 = vaddq_s32(a1, vmulq_s32(vldrbq_s32(q + 4), w1));
            b0 = vaddq_s32(b0, vmulq_s32(vldrbq_s32(q + second), w0));
            b1 = vaddq_s32(b1, vmulq_s32(vldrbq_s32(q + second + 4), w1));
            q += step_x;
            wp += ch;
        }
        row += step_y;
    }
    {
        /* Read before the first int8 store, which could alias them for the compiler. */
        const int32_t* m = rq->multiplier + c;
        const int32_t* s = rq->shift + c;
        const int32_t offset = rq->out_offset;
        const int32x4_t lo = vdupq_n_s32(rq->act_min), hi = vdupq_n_s32(rq->act_max);
        out += c;
        aot_dw_out4(a0, m, s, offset, lo, hi, out);
        aot_dw_out4(a1, m + 4, s + 4, offset, lo, hi, out + 4);
        aot_dw_out4(b0, m, s, offset, lo, hi, out + ch);
        aot_dw_out4(b1, m + 4, s + 4, offset, lo, hi, out + ch + 4);
    }
}

/* Every channel group of one or two output pixels; `two` a constant at each call site. */
AOT_ALWAYS_INLINE void aot_dw_pixels(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                     int32_t y0, int32_t x0, int8_t* out0, int two)
{
    int32_t c = 0;
    if (two) {
        for (; c + 8 <= g->channels; c += 8) {
            aot_dw_group8x2(g, rq, in_b, y0, x0, c, out0);
        }
    } else {
        for (; c + 16 <= g->channels; c += 16) {
            aot_dw_group16(g, rq, in_b, y0, x0, c, out0);
        }
    }
    for (; c + 4 <= g->channels; c += 4) {
        aot_dw_group(g, rq, in_b, y0, x0, c, 0xFFFF, out0, out0 + g->channels, two, 1);
    }
    if (c < g->channels) {
        aot_dw_group(g, rq, in_b, y0, x0, c, vctp32q((uint32_t)(g->channels - c)), out0, out0 + g->channels, two, 0);
    }
}

#else

/* Portable: the same arithmetic, channel by channel, for one or two output pixels (bounds are checked, though the
 * windows are inside). */
static void aot_dw_pixels(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b, int32_t y0,
                          int32_t x0, int8_t* out0, int two)
{
    int32_t i, s, ky, kx;
    for (s = 0; s < (two ? 2 : 1); s++) {
        const int32_t xs = x0 + s * g->stride_w;
        for (i = 0; i < g->channels; i++) {
            uint32_t acc = (uint32_t)rq->bias[i];
            int32_t v;
            for (ky = 0; ky < g->filter_h; ky++) {
                const int32_t iy = y0 + ky * g->dilation_h;
                for (kx = 0; kx < g->filter_w; kx++) {
                    const int32_t ix = xs + kx * g->dilation_w;
                    const int32_t w = g->filter[(ky * g->filter_w + kx) * g->channels + i];
                    const int32_t x = aot_dw_inside(iy, g->in_h) && aot_dw_inside(ix, g->in_w)
                                          ? in_b[(iy * g->in_w + ix) * g->channels + i]
                                          : g->zero_point;
                    acc += (uint32_t)(w * x);
                }
            }
            v = aot_multiply_by_quantized_multiplier((int32_t)acc, rq->multiplier[i], rq->shift[i]);
            v = aot_dsp_clamp((int32_t)((uint32_t)v + (uint32_t)rq->out_offset), rq->act_min, rq->act_max);
            out0[s * g->channels + i] = (int8_t)v;
        }
    }
}

#endif

/* One output row from rows whose windows are all inside (the input, or the padded band): pixel pairs, then an
 * odd last pixel.  x0: input column of the first window's left tap. */
static void aot_dw_row(const struct aot_dw_geom* geom, const struct aot_mve_rq* requant, const int8_t* in_b,
                       int32_t y0, int32_t x0, int8_t* out, int32_t out_w)
{
    /* Local copies: the int8 stores cannot alias them. */
    const struct aot_dw_geom gc = *geom;
    const struct aot_mve_rq rc = *requant;
    const struct aot_dw_geom* g = &gc;
    const struct aot_mve_rq* rq = &rc;
    int32_t ox;
    for (ox = 0; ox + 2 <= out_w; ox += 2) {
        aot_dw_pixels(g, rq, in_b, y0, x0 + ox * g->stride_w, out + ox * g->channels, 1);
    }
    if (ox < out_w) {
        aot_dw_pixels(g, rq, in_b, y0, x0 + ox * g->stride_w, out + ox * g->channels, 0);
    }
}

void aot_depthwise_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                 int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                 const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                 int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                 int32_t pad_top, int32_t pad_left, int32_t input_zero_point, int32_t output_offset,
                                 const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                 int32_t act_max, int8_t* scratch)
{
    struct aot_mve_rq rq;
    struct aot_dw_geom g, band;
    const int32_t span_h = (filter_h - 1) * dilation_h;
    const int32_t span_w = (filter_w - 1) * dilation_w;
    const int32_t band_w = (out_w - 1) * stride_w + span_w + 1;
    int32_t b, oy;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = 1;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = 0;
    g.filter = filter;
    g.in_h = in_h;
    g.in_w = in_w;
    g.channels = channels;
    g.filter_h = filter_h;
    g.filter_w = filter_w;
    g.stride_w = stride_w;
    g.dilation_h = dilation_h;
    g.dilation_w = dilation_w;
    g.zero_point = input_zero_point;
    band = g;
    band.in_w = band_w;
    band.in_h = filter_h;
    band.dilation_h = 1;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * channels;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t y0 = oy * stride_h - pad_top;
            int8_t* out_row = output + (b * out_h + oy) * out_w * channels;
            if (y0 >= 0 && y0 + span_h < in_h && pad_left == 0 && band_w <= in_w) {
                aot_dw_row(&g, &rq, in_b, y0, 0, out_row, out_w);
            } else {
                /* The band: row ky is input row y0 + ky * dilation_h, band column j input column j - pad_left. */
                const int32_t row_bytes = band_w * channels;
                const int32_t lo = pad_left < band_w ? pad_left : band_w;
                const int32_t hi0 = in_w + pad_left;
                const int32_t hi = hi0 > band_w ? band_w : (hi0 < lo ? lo : hi0);
                int32_t ky;
                for (ky = 0; ky < filter_h; ky++) {
                    const int32_t iy = y0 + ky * dilation_h;
                    int8_t* dst = scratch + ky * row_bytes;
                    if (iy < 0 || iy >= in_h) {
                        aot_mve_fill(dst, row_bytes, (int8_t)input_zero_point);
                    } else {
                        aot_mve_fill(dst, lo * channels, (int8_t)input_zero_point);
                        aot_mve_copy(dst + lo * channels, in_b + (iy * in_w + lo - pad_left) * channels,
                                     (hi - lo) * channels);
                        aot_mve_fill(dst + hi * channels, (band_w - hi) * channels, (int8_t)input_zero_point);
                    }
                }
                aot_dw_row(&band, &rq, scratch, 0, 0, out_row, out_w);
            }
        }
    }
}
