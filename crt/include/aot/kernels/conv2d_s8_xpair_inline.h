/* The int8 2-D convolution body on packed *inputs* for cores without SIMD multiplies that have SMLAL (Cortex-M3):
 * two output pixels per 32-bit input word, so one SMLAL does two multiply-accumulates while the weights stay one
 * byte each (compiler/ops/common/packed.py's xpair_* functions; the packed-weight form, aot/kernels/
 * conv2d_s8_packed_inline.h, is as fast but doubles the weight bytes, which a 3.4 MB model cannot afford on a
 * 4 MiB board).
 *
 * For a pair of output pixels p0, p1 the window's tap values are gathered once into the scratch words
 * X[t] = x0[t] + x1[t] * 2^23 (taps outside the image are pad_fill: the input zero point is folded into the bias,
 * so every value is an int8 value).  Per output channel c the 64-bit sum of w_c[t] * X[t] started at AOT_PACK_BIAS
 * holds pixel 0's sum in its low lane and pixel 1's in the high one, and splits back exactly (aot_pack_split)
 * when pixel 0's sum stays in [-2^22, 2^22): the compiler proves that from the weights for every channel, or gives
 * the layer runs of at most AOT_PACK_SAFE_RUN taps (`chunk`), each split on its own.  An odd last pixel takes the
 * same path with x1 = 0.
 *
 * Weights: groups of four output channels (the last zero-padded), per group [tap][4] int8, so a tap of a group is
 * one LDR of X and four LDRSB / SMLAL: 9 instructions for 8 MACs.  Same arithmetic and arguments as
 * aot_conv2d_s8_packed_body plus `chunk` and the scratch `xs` (taps words, from the workspace planner), including
 * the optional fused residual ADD.  Also runs a DEPTHWISE_CONV_2D with one input channel.
 */
#ifndef AOT_KERNELS_CONV2D_S8_XPAIR_INLINE_H_
#define AOT_KERNELS_CONV2D_S8_XPAIR_INLINE_H_

#include <stddef.h>
#include <stdint.h>

#include "aot/kernels/add_s8_elem_inline.h"
#include "aot/kernels/depthwise_conv2d_s8_inline.h"
#include "aot/kernels/dot_packed_s8_inline.h"

/* Thumb-2 with GCC or Clang, optimizing: the tap loop is asm, for the reason dot_packed_s8_inline.h gives (GCC 12
 * gives each int64_t accumulator a register pair and spills four of them; at -Os it does not unroll).  Eight
 * accumulator halves, X, one weight, two pointers and the pass counter: 13 registers, more than -O0 leaves free
 * (its frame pointer takes r7), where the C form below gives the same sums. */
#if defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
#define AOT_XPAIR_ASM 1

/* One tap: X from ADDR_X, the weights of channels 1, 2, 3 at byte offsets O1..O3 of the weight pointer, then
 * channel 0's from ADDR_W0 (last, so that its load may advance the pointer). */
#define AOT_XTAP_ASM(addr_x, o1, o2, o3, addr_w0)                                                                      \
    "ldr %[v], " addr_x "\n\t"                                                                                         \
    "ldrsb %[w], [%[wp], #" o1 "]\n\t"                                                                                 \
    "smlal %[l1], %[h1], %[v], %[w]\n\t"                                                                               \
    "ldrsb %[w], [%[wp], #" o2 "]\n\t"                                                                                 \
    "smlal %[l2], %[h2], %[v], %[w]\n\t"                                                                               \
    "ldrsb %[w], [%[wp], #" o3 "]\n\t"                                                                                 \
    "smlal %[l3], %[h3], %[v], %[w]\n\t"                                                                               \
    "ldrsb %[w], " addr_w0 "\n\t"                                                                                      \
    "smlal %[l0], %[h0], %[v], %[w]\n\t"

#define AOT_XPAIR_OPERANDS                                                                                             \
    [l0] "+r"(l0), [h0] "+r"(h0), [l1] "+r"(l1), [h1] "+r"(h1), [l2] "+r"(l2), [h2] "+r"(h2), [l3] "+r"(l3),           \
        [h3] "+r"(h3), [xp] "+r"(xp), [wp] "+r"(wp)

/* The loop over %[n] passes of four taps: 1, 2 and 3 at offsets, then 0, which advances both pointers. */
/* clang-format off */
#define AOT_XPASS_ASM                                                                                                  \
    "1:\n\t"                                                                                                           \
    AOT_XTAP_ASM("[%[xp], #4]", "5", "6", "7", "[%[wp], #4]")                                                          \
    AOT_XTAP_ASM("[%[xp], #8]", "9", "10", "11", "[%[wp], #8]")                                                        \
    AOT_XTAP_ASM("[%[xp], #12]", "13", "14", "15", "[%[wp], #12]")                                                     \
    AOT_XTAP_ASM("[%[xp]], #16", "1", "2", "3", "[%[wp]], #16")                                                        \
    "subs %[n], %[n], #1\n\t"                                                                                          \
    "bne 1b"
/* clang-format on */
#endif

/* The two pixels' sums of a lane pair (see aot_pack_split) from its 32-bit halves: no 64-bit shift. */
#define AOT_XLO(l)    ((int32_t)((l) & ((1u << AOT_PACK_SHIFT) - 1u)) - (int32_t)AOT_PACK_BIAS)
#define AOT_XHI(l, h) ((int32_t)(((l) >> AOT_PACK_SHIFT) | ((h) << (32 - AOT_PACK_SHIFT))))

/* s0[j] += pixel 0's and s1[j] += pixel 1's sum_{t < n} w[4 t + j] * x[t], j < 4, from the packed words xs (one
 * accumulation: n within the lane bound). */
AOT_INLINE_BODY void aot_xdot4_s8(const int32_t* xs, const int8_t* w, int32_t n, int32_t* s0, int32_t* s1)
{
#ifdef AOT_XPAIR_ASM
    uint32_t l0 = (uint32_t)AOT_PACK_BIAS, h0 = 0, l1 = (uint32_t)AOT_PACK_BIAS, h1 = 0;
    uint32_t l2 = (uint32_t)AOT_PACK_BIAS, h2 = 0, l3 = (uint32_t)AOT_PACK_BIAS, h3 = 0;
    const int32_t* xp = xs;
    const int8_t* wp = w;
    int32_t passes = n >> 2, rest = n & 3, v, wv;
    if (AOT_CONSTANT(n) && n <= 8) {
        passes = 0;
        rest = n;
    }
    if (passes > 0) {
        __asm__(AOT_XPASS_ASM : AOT_XPAIR_OPERANDS, [n] "+r"(passes), [v] "=&r"(v), [w] "=&r"(wv) : : "cc", "memory");
    }
    /* At most 3 taps, or a literal run of at most 8 (a stem's filter): straight-line taps. */
    AOT_UNROLL
    for (; rest > 0; rest--) {
        __asm__(AOT_XTAP_ASM("[%[xp]], #4", "1", "2", "3", "[%[wp]], #4")
                : AOT_XPAIR_OPERANDS, [v] "=&r"(v), [w] "=&r"(wv)
                :
                : "memory");
    }
#else
    uint64_t a0 = (uint64_t)AOT_PACK_BIAS, a1 = a0, a2 = a0, a3 = a0;
    uint32_t l0, h0, l1, h1, l2, h2, l3, h3;
    int32_t t;
    AOT_PACK_UNROLL
    for (t = 0; t < n; t++) {
        const int64_t v = xs[t];
        a0 += (uint64_t)(v * w[0]);
        a1 += (uint64_t)(v * w[1]);
        a2 += (uint64_t)(v * w[2]);
        a3 += (uint64_t)(v * w[3]);
        w += 4;
    }
    l0 = (uint32_t)a0, h0 = (uint32_t)(a0 >> 32), l1 = (uint32_t)a1, h1 = (uint32_t)(a1 >> 32);
    l2 = (uint32_t)a2, h2 = (uint32_t)(a2 >> 32), l3 = (uint32_t)a3, h3 = (uint32_t)(a3 >> 32);
#endif
    s0[0] += AOT_XLO(l0);
    s1[0] += AOT_XHI(l0, h0);
    s0[1] += AOT_XLO(l1);
    s1[1] += AOT_XHI(l1, h1);
    s0[2] += AOT_XLO(l2);
    s1[2] += AOT_XHI(l2, h2);
    s0[3] += AOT_XLO(l3);
    s1[3] += AOT_XHI(l3, h3);
}

/* xs[t] = (the window's tap t of pixel (oy, ox), pad_fill outside the image) for t < taps; with `add` the value
 * times 2^23 is added to xs[t] instead (the pair's second pixel). */
AOT_INLINE_BODY void aot_xpair_gather(const int8_t* in_b, int32_t* xs, int32_t add, int32_t oy, int32_t ox,
                                      int32_t in_h, int32_t in_w, int32_t in_c, int32_t filter_h, int32_t filter_w,
                                      int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                      int32_t pad_top, int32_t pad_left, int32_t pad_fill)
{
    const int32_t iy0 = oy * stride_h - pad_top, ix0 = ox * stride_w - pad_left;
    int32_t fy, fx, c;
    for (fy = 0; fy < filter_h; fy++) {
        const int32_t iy = iy0 + fy * dilation_h;
        for (fx = 0; fx < filter_w; fx++) {
            const int32_t ix = ix0 + fx * dilation_w;
            const int8_t* x = in_b + (iy * in_w + ix) * in_c;
            const int32_t inside = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w;
            for (c = 0; c < in_c; c++) {
                const int32_t v = inside ? x[c] : pad_fill;
                if (add) {
                    xs[c] += v * (1 << AOT_PACK_SHIFT);
                } else {
                    xs[c] = v;
                }
            }
            xs += in_c;
        }
    }
}

/* Requantizes (and with a residual, adds) `rows` channel sums of one pixel (s0 into out0) or two (s1 into out1
 * too): the channel's constants loaded once for both. */
AOT_INLINE_BODY void aot_xpair_store(const int32_t* s0, const int32_t* s1, int32_t two, int32_t rows,
                                     const int32_t* bias, int8_t* out0, int8_t* out1, const int8_t* res0,
                                     const int8_t* res1, int32_t oc, int32_t requant, const int32_t* out_multiplier,
                                     const int32_t* out_second, int32_t quant_step, int32_t output_offset,
                                     int32_t act_min, int32_t act_max, const struct aot_add_s8_params* add)
{
    int32_t r;
    AOT_UNROLL
    for (r = 0; r < rows; r++) {
        const int32_t b = bias != NULL ? bias[oc + r] : 0;
        const int32_t m = out_multiplier[(oc + r) * quant_step], sc = out_second[(oc + r) * quant_step];
        int8_t v = aot_requant_s8(s0[r] + b, requant, m, sc, output_offset, act_min, act_max);
        out0[r] = res0 != NULL ? (int8_t)aot_add_s8_elem_inline(v, res0[r], add) : v;
        if (two) {
            v = aot_requant_s8(s1[r] + b, requant, m, sc, output_offset, act_min, act_max);
            out1[r] = res1 != NULL ? (int8_t)aot_add_s8_elem_inline(v, res1[r], add) : v;
        }
    }
}

/* Output pixels px and, with `two`, px + 1 (inputs already packed into xs): every group of output channels. */
AOT_INLINE_BODY void aot_xpair_pixels(const int32_t* xs, int32_t two, int32_t taps, int32_t chunk, const int8_t* filter,
                                      const int32_t* bias, int8_t* out, int32_t out_c, const int8_t* residual,
                                      int32_t requant, const int32_t* out_multiplier, const int32_t* out_second,
                                      int32_t quant_step, int32_t output_offset, int32_t act_min, int32_t act_max,
                                      const struct aot_add_s8_params* add)
{
    int32_t oc, r;
    for (oc = 0; oc < out_c; oc += 4) {
        const int8_t* w = filter + oc * taps;
        /* A literal 4 where out_c is a multiple of 4 (the requantization loop then unrolls). */
        const int32_t rows = (out_c & 3) == 0 ? 4 : (out_c - oc < 4 ? out_c - oc : 4);
        int32_t s0[4] = {0, 0, 0, 0}, s1[4] = {0, 0, 0, 0};
        if (chunk >= taps) {
            aot_xdot4_s8(xs, w, taps, s0, s1);
        } else {
            for (r = 0; r < taps; r += chunk) {
                aot_xdot4_s8(xs + r, w + 4 * r, taps - r < chunk ? taps - r : chunk, s0, s1);
            }
        }
        aot_xpair_store(s0, s1, two, rows, bias, out + oc, out + out_c + oc, residual != NULL ? residual + oc : NULL,
                        residual != NULL ? residual + out_c + oc : NULL, oc, requant, out_multiplier, out_second,
                        quant_step, output_offset, act_min, act_max, add);
    }
}

/* A layer's constants for aot_conv2d_s8_xpair_pixels, set once per call of the body. */
struct aot_xpair_layer {
    const int8_t* filter;
    const int32_t* bias;
    const int32_t* out_multiplier;
    const int32_t* out_second;
    const struct aot_add_s8_params* add;
    int32_t taps, chunk, out_c, requant, quant_step, output_offset, act_min, act_max;
};

/* aot_xpair_pixels out of line (crt/src/kernels/conv2d_s8_xpair_pixels.c), shared by every layer of an image
 * with at least AOT_XPAIR_SHARED_TAPS taps a window: inlined, its tap loop and requantization are copied into each
 * layer's function twice (the pair and the odd pixel), 0.3-0.5 KB a layer.  Its run-time loops cost about 130
 * instructions a group of four channels, which only a long tap loop (9 a tap) hides; shorter windows (a stem's,
 * a 1x1 layer of up to 64 channels) stay inline (every layer shared: MobileNet v1 96 at 0.67x TFLite Micro; from
 * 64 taps KWS 0.63x). */
/* The generated model may set it (compiler/ops/common/specialize.py xpair_share: 1 where sharing every layer costs
 * little; else at -Os lower where the layers it adds cost little). */
#ifndef AOT_XPAIR_SHARED_TAPS
#define AOT_XPAIR_SHARED_TAPS 128
#endif
void aot_conv2d_s8_xpair_pixels(const struct aot_xpair_layer* layer, const int32_t* xs, int32_t two, int8_t* out,
                                const int8_t* residual);

/* xs[t] = x0[t] + x1[t] * 2^23 (t < taps) for the output pixels (oy, ox) and, with `two`, (oy, ox + 1) (x1 = 0
 * without): where both windows lie inside the image, row by row in one pass; else tap by tap. */
AOT_INLINE_BODY void aot_xpair_pack(const int8_t* in_b, int32_t* xs, int32_t oy, int32_t ox, int32_t two, int32_t in_h,
                                    int32_t in_w, int32_t in_c, int32_t filter_h, int32_t filter_w, int32_t stride_h,
                                    int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                    int32_t pad_left, int32_t pad_fill)
{
    const int32_t iy0 = oy * stride_h - pad_top, ix0 = ox * stride_w - pad_left;
    int32_t fy, t;
    if (two && dilation_w == 1 && iy0 >= 0 && iy0 + (filter_h - 1) * dilation_h < in_h && ix0 >= 0 &&
        ix0 + stride_w + filter_w <= in_w) {
        const int32_t row = filter_w * in_c, step = stride_w * in_c;
        for (fy = 0; fy < filter_h; fy++) {
            const int8_t* x = in_b + ((iy0 + fy * dilation_h) * in_w + ix0) * in_c;
            for (t = 0; t < row; t++) {
                xs[t] = x[t] + x[t + step] * (1 << AOT_PACK_SHIFT);
            }
            xs += row;
        }
        return;
    }
    aot_xpair_gather(in_b, xs, 0, oy, ox, in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w, dilation_h,
                     dilation_w, pad_top, pad_left, pad_fill);
    if (two) {
        aot_xpair_gather(in_b, xs, 1, oy, ox + 1, in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w, dilation_h,
                         dilation_w, pad_top, pad_left, pad_fill);
    }
}

/* The pixels' work inline (aot_xpair_pixels: literal constants) or shared (`shared`, a literal). */
AOT_INLINE_BODY void aot_xpair_pixels_in(const struct aot_xpair_layer* layer, int32_t shared, const int32_t* xs,
                                         int32_t two, int8_t* out, const int8_t* residual)
{
    if (shared) {
        aot_conv2d_s8_xpair_pixels(layer, xs, two, out, residual);
    } else {
        aot_xpair_pixels(xs, two, layer->taps, layer->chunk, layer->filter, layer->bias, out, layer->out_c, residual,
                         layer->requant, layer->out_multiplier, layer->out_second, layer->quant_step,
                         layer->output_offset, layer->act_min, layer->act_max, layer->add);
    }
}

/* At -Os (__OPTIMIZE_SIZE__) a pair and a lone last pixel are one text (`two` a run-time value): the pixels' work
 * inlined once per layer instead of twice (KWS's 1x1 layers and its 10x4 stem, MobileNet v1's short 1x1 layers),
 * for a few instructions a group of four channels (the second pixel's stores test `two`). */
#if defined(__OPTIMIZE_SIZE__)
#define AOT_XPAIR_ONE_TEXT 1
#else
#define AOT_XPAIR_ONE_TEXT 0
#endif

/* The whole layer; filter holds ceil(out_c / 4) groups of filter_h * filter_w * in_c * 4 bytes, xs
 * filter_h * filter_w * in_c words of scratch; chunk: the longest run of taps one accumulation may take.  A
 * pointwise layer pairs consecutive pixels of the whole image (their inputs are consecutive runs of in_c values),
 * any other pairs neighbours in a row (an odd row's last pixel alone).  xs_late (a pointwise layer of one batch,
 * where its scratch would set the workspace's peak; else a literal NULL): the scratch from the fifth pixel on, the
 * input's first 4 * in_c bytes, which only the first four pixels read; xs then serves those four only (the planner
 * puts it in the output's last bytes, which later pixels write: compiler/ops/common/specialize.py xpair_split). */
AOT_INLINE_BODY void
aot_conv2d_s8_xpair_body(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                         const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output,
                         int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                         int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t pad_fill,
                         int32_t chunk, int32_t output_offset, int32_t requant, const int32_t* out_multiplier,
                         const int32_t* out_second, int32_t quant_step, int32_t act_min, int32_t act_max,
                         const int8_t* residual, const struct aot_add_s8_params* add, int32_t* xs, int32_t* xs_late)
{
    const int32_t taps = filter_h * filter_w * in_c;
    const int32_t pixels = out_h * out_w;
    const int32_t pointwise = filter_h == 1 && filter_w == 1 && stride_h == 1 && stride_w == 1 && pad_top == 0 &&
                              pad_left == 0 && out_w == in_w && out_h == in_h;
    const struct aot_xpair_layer layer = {filter, bias,    out_multiplier, out_second,    add,     taps,   chunk,
                                          out_c,  requant, quant_step,     output_offset, act_min, act_max};
    const int32_t shared = !AOT_CONSTANT(taps) || taps >= AOT_XPAIR_SHARED_TAPS;
    int32_t b, px, oy, ox, t;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        int8_t* out_b = output + b * pixels * out_c;
        const int8_t* res_b = residual != NULL ? residual + b * pixels * out_c : NULL;
        if (pointwise && AOT_XPAIR_ONE_TEXT) {
            for (px = 0; px < pixels; px += 2) {
                const int8_t* x0 = in_b + px * in_c;
                int32_t* xp = xs_late != NULL && px >= 4 ? xs_late : xs;
                const int32_t two = px + 1 < pixels;
                for (t = 0; t < in_c; t++) {
                    xp[t] = two ? x0[t] + x0[t + in_c] * (1 << AOT_PACK_SHIFT) : x0[t];
                }
                aot_xpair_pixels_in(&layer, shared, xp, two, out_b + px * out_c,
                                    res_b != NULL ? res_b + px * out_c : NULL);
            }
            continue;
        }
        if (pointwise) {
            for (px = 0; px + 1 < pixels; px += 2) {
                const int8_t* x0 = in_b + px * in_c;
                int32_t* xp = xs_late != NULL && px >= 4 ? xs_late : xs;
                for (t = 0; t < in_c; t++) {
                    xp[t] = x0[t] + x0[t + in_c] * (1 << AOT_PACK_SHIFT);
                }
                aot_xpair_pixels_in(&layer, shared, xp, 1, out_b + px * out_c,
                                    res_b != NULL ? res_b + px * out_c : NULL);
            }
            if (pixels & 1) {
                /* The odd last pixel: the same loop, its high lanes zero. */
                const int8_t* x0 = in_b + px * in_c;
                int32_t* xp = xs_late != NULL && px >= 4 ? xs_late : xs;
                for (t = 0; t < in_c; t++) {
                    xp[t] = x0[t];
                }
                aot_xpair_pixels_in(&layer, shared, xp, 0, out_b + px * out_c,
                                    res_b != NULL ? res_b + px * out_c : NULL);
            }
            continue;
        }
        for (oy = 0; oy < out_h; oy++) {
            if (AOT_XPAIR_ONE_TEXT) {
                for (ox = 0; ox < out_w; ox += 2) {
                    const int32_t two = ox + 1 < out_w;
                    px = oy * out_w + ox;
                    aot_xpair_pack(in_b, xs, oy, ox, two, in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w,
                                   dilation_h, dilation_w, pad_top, pad_left, pad_fill);
                    aot_xpair_pixels_in(&layer, shared, xs, two, out_b + px * out_c,
                                        res_b != NULL ? res_b + px * out_c : NULL);
                }
                continue;
            }
            for (ox = 0; ox + 1 < out_w; ox += 2) {
                px = oy * out_w + ox;
                aot_xpair_pack(in_b, xs, oy, ox, 1, in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w,
                               dilation_h, dilation_w, pad_top, pad_left, pad_fill);
                aot_xpair_pixels_in(&layer, shared, xs, 1, out_b + px * out_c,
                                    res_b != NULL ? res_b + px * out_c : NULL);
            }
            if (out_w & 1) {
                px = oy * out_w + ox;
                aot_xpair_pack(in_b, xs, oy, ox, 0, in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w,
                               dilation_h, dilation_w, pad_top, pad_left, pad_fill);
                aot_xpair_pixels_in(&layer, shared, xs, 0, out_b + px * out_c,
                                    res_b != NULL ? res_b + px * out_c : NULL);
            }
        }
    }
}

#endif /* AOT_KERNELS_CONV2D_S8_XPAIR_INLINE_H_ */
