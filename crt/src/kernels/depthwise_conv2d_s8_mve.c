/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE), with a portable fallback.
 *
 * NHWC keeps a pixel's channels together, so the kernel vectorises across channels.  MVE has no vector-by-vector
 * multiply-accumulate, so per tap: VLDRB.S16 widens 8 inputs and 8 weights to int16 lanes, VMULLB / VMULLT multiply
 * the even and the odd lanes into int32 products and two VADDs accumulate them: 8 channels of two horizontally
 * adjacent output pixels per pass (each weight vector serves both), of one pixel for an odd last one; the channels
 * left over go four at a time (VLDRB.S32, VMUL, VADD).  The channel count needs no particular
 * value: the last group is predicated (VCTP).  The filter stays as in the model ([kh][kw][channels]).  The input zero
 * point is folded into the bias by the compiler, so a tap outside the image must read the zero point (the padded
 * band below), and any padding, stride and dilation is exact.
 * Requantization per channel with TFLite's multiplier and shift, vectorised as in mve_s8.h (aot_mve_requant_right
 * when every shift of the layer is a right shift), of 8 channels as two int32 vectors of even and odd channels
 * narrowed with saturation into one int16 vector back in channel order, clamped and stored 8 lanes at a time.
 * Output rows whose windows leave the image are computed from a padded band in scratch: the filter_h input rows
 * they read (dilation_h apart), each padded with the zero point to the width the row of windows spans, so every
 * window reads without bounds checks.  Scratch: filter_h * band_w * channels bytes, band_w =
 * (out_w - 1) * stride_w + (filter_w - 1) * dilation_w + 1 (none when no window leaves the image).
 * This unit is the generic form, for any layer.  MobileNet's layers (3x3, dilation 1, stride 1 or 2) take faster
 * forms in optimised builds, each an entry point in a unit of its own that the compiler calls when a layer qualifies
 * (aot/kernels/depthwise_conv2d.h): the strip form for padded layers with wide outputs
 * (depthwise_conv2d_s8_mve_strip.c: one channel at a time, one VMLADAV per output, 0.72-1.16 instructions per MAC on
 * MobileNet's layers), else, on channels a multiple of 8, a pixel pair per iteration of an assembly loop, about one
 * instruction per MAC, on a rolling band of padded rows or, for small padded images, the whole padded image of 8
 * channels at a time (depthwise_conv2d_s8_mve_3x3.h; _3x3.c for layers whose shifts are all right shifts, _3x3_left.c
 * otherwise).  An image links only the forms its layers take: without -ffunction-sections a whole object links.
 */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/depthwise_conv2d.h"
#include "mve_s8.h"

/* Is input coordinate v inside [0, n)? */
AOT_HOT_INLINE int aot_dw_inside(int32_t v, int32_t n)
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

/* The requantization of 8 channels of one pixel held as even channels (ae: c, c+2, c+4, c+6) and odd ones (ao),
 * with the constants split the same way (VLD2): narrowed with saturation to int16 lanes back in channel order
 * (VQMOVNB / VQMOVNT), clamped 8 lanes at a time, stored by a narrowing VSTRB.16.  The saturation cannot change
 * the clamped value: the activation range lies inside int16. */
AOT_ALWAYS_INLINE void aot_dw_out8(int32x4_t ae, int32x4_t ao, const int32_t* m, const int32_t* s, int32_t offset,
                                   int16x8_t lo, int16x8_t hi, int8_t* out, mve_pred16_t p, int full, int right)
{
    const int32x4x2_t mm = vld2q_s32(m), ss = vld2q_s32(s);
    int16x8_t h = vuninitializedq_s16();
    if (right) {
        ae = aot_mve_requant_right(ae, mm.val[0], ss.val[0]);
        ao = aot_mve_requant_right(ao, mm.val[1], ss.val[1]);
    } else {
        ae = aot_mve_requant(ae, mm.val[0], ss.val[0]);
        ao = aot_mve_requant(ao, mm.val[1], ss.val[1]);
    }
    h = vqmovnbq_s32(h, vaddq_n_s32(ae, offset));
    h = vqmovntq_s32(h, vaddq_n_s32(ao, offset));
    h = vminq_s16(vmaxq_s16(h, lo), hi);
    if (full) {
        vstrbq_s16(out, h);
    } else {
        vstrbq_p_s16(out, h, p);
    }
}

/* Eight channels c..c+7 of output pixel (y0, x0) and, with `two`, (y0, x0 + stride) (windows inside g).  VLDRB.S16
 * widens 8 inputs and 8 weights to int16 lanes; VMULLB / VMULLT multiply the even and the odd lanes into int32
 * products, so 8 channels cost one load per operand and two multiplies (the weight vector serves both pixels). */
AOT_ALWAYS_INLINE void aot_dw_group8(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                     int32_t y0, int32_t x0, int32_t c, int8_t* out, int two, int right)
{
    const int32_t ch = g->channels;
    const int8_t* wp = g->filter + c;
    const int8_t* row = in_b + (y0 * g->in_w + x0) * ch + c;
    const int32_t step_x = g->dilation_w * ch;
    const int32_t step_y = g->dilation_h * g->in_w * ch;
    const int32_t second = g->stride_w * ch;
    const int32x4x2_t bias = vld2q_s32(rq->bias + c);
    int32x4_t ae = bias.val[0], ao = bias.val[1], be = ae, bo = ao;
    int32_t ky, kx;
    for (ky = 0; ky < g->filter_h; ky++) {
        const int8_t* q = row;
        for (kx = 0; kx < g->filter_w; kx++) {
            const int16x8_t w = vldrbq_s16(wp);
            const int16x8_t x = vldrbq_s16(q);
            ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
            ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
            if (two) {
                const int16x8_t x1 = vldrbq_s16(q + second);
                be = vaddq_s32(be, vmullbq_int_s16(x1, w));
                bo = vaddq_s32(bo, vmulltq_int_s16(x1, w));
            }
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
        const int16x8_t lo = vdupq_n_s16((int16_t)rq->act_min), hi = vdupq_n_s16((int16_t)rq->act_max);
        out += c;
        aot_dw_out8(ae, ao, m, s, offset, lo, hi, out, 0xFFFF, 1, right);
        if (two) {
            aot_dw_out8(be, bo, m, s, offset, lo, hi, out + ch, 0xFFFF, 1, right);
        }
    }
}

/* Every channel group of one or two output pixels; `two` and `right` (all shifts right shifts) constants at each
 * call site. */
AOT_ALWAYS_INLINE void aot_dw_pixels(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                     int32_t y0, int32_t x0, int8_t* out0, int two, int right)
{
    int32_t c = 0;
    for (; c + 8 <= g->channels; c += 8) {
        aot_dw_group8(g, rq, in_b, y0, x0, c, out0, two, right);
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
                          int32_t x0, int8_t* out0, int two, int right)
{
    (void)right;
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
AOT_ALWAYS_INLINE void aot_dw_row_body(const struct aot_dw_geom* g, const struct aot_mve_rq* rq, const int8_t* in_b,
                                       int32_t y0, int32_t x0, int8_t* out, int32_t out_w, int right)
{
    int32_t ox;
    for (ox = 0; ox + 2 <= out_w; ox += 2) {
        aot_dw_pixels(g, rq, in_b, y0, x0 + ox * g->stride_w, out + ox * g->channels, 1, right);
    }
    if (ox < out_w) {
        aot_dw_pixels(g, rq, in_b, y0, x0 + ox * g->stride_w, out + ox * g->channels, 0, right);
    }
}

static void aot_dw_mve_row(const struct aot_dw_geom* geom, const struct aot_mve_rq* requant, const int8_t* in_b,
                           int32_t y0, int32_t x0, int8_t* out, int32_t out_w, int right)
{
    /* Local copies: the int8 stores cannot alias them. */
    const struct aot_dw_geom gc = *geom;
    const struct aot_mve_rq rc = *requant;
    if (right) {
        aot_dw_row_body(&gc, &rc, in_b, y0, x0, out, out_w, 1);
    } else {
        aot_dw_row_body(&gc, &rc, in_b, y0, x0, out, out_w, 0);
    }
}

/* The filter_h rows of a band in scratch (row ky: input row y0 + ky * dilation_h; band column j: input column
 * xs + j, for j in [0, w)), the zero point wherever that is outside the image. */
static void aot_dw_band(int8_t* scratch, const int8_t* in_b, int32_t in_h, int32_t in_w, int32_t channels, int32_t y0,
                        int32_t filter_h, int32_t dilation_h, int32_t xs, int32_t w, int8_t zero_point)
{
    const int32_t row_bytes = w * channels;
    const int32_t lo = -xs < 0 ? 0 : (-xs < w ? -xs : w);
    const int32_t hi0 = in_w - xs;
    const int32_t hi = hi0 > w ? w : (hi0 < lo ? lo : hi0);
    int32_t ky;
    for (ky = 0; ky < filter_h; ky++) {
        const int32_t iy = y0 + ky * dilation_h;
        int8_t* dst = scratch + ky * row_bytes;
        if (iy < 0 || iy >= in_h) {
            aot_mve_fill(dst, row_bytes, zero_point);
        } else {
            aot_mve_fill(dst, lo * channels, zero_point);
            aot_mve_copy(dst + lo * channels, in_b + (iy * in_w + xs + lo) * channels, (hi - lo) * channels);
            aot_mve_fill(dst + hi * channels, (w - hi) * channels, zero_point);
        }
    }
}

void aot_depthwise_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                                 const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                 int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                 int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                 int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                                 const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
    struct aot_mve_rq rq;
    struct aot_dw_geom g, band;
    const int32_t span_h = (filter_h - 1) * dilation_h;
    const int32_t span_w = (filter_w - 1) * dilation_w;
    const int32_t band_w = (out_w - 1) * stride_w + span_w + 1;
    const int right = aot_mve_all_right(out_shift, out_multiplier, channels);
    int32_t b, oy;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = 1;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = NULL;
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
                aot_dw_mve_row(&g, &rq, in_b, y0, 0, out_row, out_w, right);
            } else {
                aot_dw_band(scratch, in_b, in_h, in_w, channels, y0, filter_h, dilation_h, -pad_left, band_w,
                            (int8_t)input_zero_point);
                aot_dw_mve_row(&band, &rq, scratch, 0, 0, out_row, out_w, right);
            }
        }
    }
}
