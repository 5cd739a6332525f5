/* aot_conv2d_s8_dsp_t2, the DSP convolution with a tile of two output pixels instead of three: for a layer whose
 * scratch sets the model's workspace peak, where the smaller tile lowers it (the compiler picks it only there, for
 * layers with the short requantization and no fused ADD; compiler/planner/plan.py).  Same arguments, weight layout
 * and results as aot_conv2d_s8_dsp (contract: conv2d_s8_dsp.c), over the helpers of conv2d_s8_dsp_body.h; its scratch
 * is the tile's expanded pairs, 16 bytes per quad of K (16 more with a K % 4 tail), then one filter row when the rows
 * are whole quads without column dilation (the copy of a row crossing the image's left or right edge).  The GEMM is C
 * (the channel-pairs asm is the 3-pixel tile's), so the layer is slower; it trades speed for workspace where the
 * workspace is what the model needs most.  A unit of its own, so that an image built without -ffunction-sections links
 * it only when a layer calls it.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

/* Words per quad of K in the tile buffer: (xa, xc) of each of the two pixels. */
#define AOT_CONV_T2_QW 4

/* One input word of a pixel into its slot as the expanded pair; adds sum(x0 + x2). */
AOT_HOT_INLINE uint32_t* aot_conv_t2_put(uint32_t v, uint32_t* dst, int32_t* sum)
{
    const uint32_t xa = aot_expand_xa(v);
    dst[0] = xa;
    dst[1] = aot_expand_xc(v);
    *sum = aot_smlad(xa, 0x00010001u, *sum);
    return dst + AOT_CONV_T2_QW;
}

/* Expands `quads` input quads from src into the slot's pairs (dst, every AOT_CONV_T2_QW words); adds sum(x0 + x2).
 * quads >= 1. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
/* 8 instructions per quad (LDR of any alignment, SXTB16, REV16 and EOR, the sum's SMLAD, one STRD, the loop's two). */
AOT_HOT_INLINE uint32_t* aot_conv_t2_expand(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum)
{
    const int8_t* const end = src + 4 * quads;
    int32_t s = *sum;
    uint32_t v, xa, xc;
    __asm__("1:\n\t"
            "ldr %[v], [%[src]], #4\n\t"
            "sxtb16 %[xa], %[v]\n\t"
            "rev16 %[xc], %[v]\n\t"
            "eor %[xc], %[xc], %[k]\n\t"
            "smlad %[s], %[xa], %[ones], %[s]\n\t"
            "strd %[xa], %[xc], [%[dst]], #16\n\t"
            "cmp %[src], %[end]\n\t"
            "bne 1b"
            : [src] "+r"(src), [dst] "+r"(dst), [s] "+r"(s), [v] "=&r"(v), [xa] "=&r"(xa), [xc] "=&r"(xc)
            : [end] "r"(end), [k] "r"(0xFF80FF80u), [ones] "r"(0x00010001u)
            : "cc", "memory");
    *sum = s;
    return dst;
}
#else
AOT_HOT_INLINE uint32_t* aot_conv_t2_expand(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum)
{
    for (; quads > 0; quads--) {
        dst = aot_conv_t2_put(aot_read32(src), dst, sum);
        src += 4;
    }
    return dst;
}
#endif

/* Expands pixel `pixel` into `dst` (its slot's first pair): the K taps in (ky, kx, c) order, the zero point outside the
 * image.  Filter rows of whole quads (without column dilation) expand straight from the input, from the expanded zero
 * point above or below the image, or from a copy (`copy`, after the tile in the scratch) where they cross its left or
 * right edge; other rows go a byte
 * at a time into a word.  The K % 4 leftover taps go to `tailp` as one plain word (x0, x2) (x1, x3); the bytes past
 * them are zero and meet zero weights.  Returns 128 * sum(x0 + x2) over the quads. */
AOT_NOINLINE int32_t aot_conv_t2_im2col(const struct aot_conv_geom* g, int32_t pixel, uint32_t* dst, uint32_t* tailp,
                                        int8_t* copy)
{
    const int32_t row_bytes = g->filter_w * g->in_c;
    const int32_t ox = pixel % g->out_w;
    const int32_t oy = (pixel / g->out_w) % g->out_h;
    const int8_t* in_b = g->input + (pixel / (g->out_w * g->out_h)) * g->in_h * g->in_w * g->in_c;
    const int32_t y0 = oy * g->stride_h - g->pad_top;
    const int32_t x0 = ox * g->stride_w - g->pad_left;
    const int32_t inside_x = g->dilation_w == 1 && x0 >= 0 && x0 + g->filter_w <= g->in_w;
    const int32_t whole = g->dilation_w == 1 && row_bytes % 4 == 0;
    const int8_t zp = (int8_t)g->zero_point;
    uint32_t word = 0;
    int32_t n = 0, sum = 0, ky, kx, c;

    for (ky = 0; ky < g->filter_h; ky++) {
        const int32_t iy = y0 + ky * g->dilation_h;
        const int32_t row_in = iy >= 0 && iy < g->in_h;
        const int8_t* row = in_b + iy * g->in_w * g->in_c;
        if (whole && row_in && inside_x) {
            dst = aot_conv_t2_expand(row + x0 * g->in_c, row_bytes / 4, dst, &sum);
            continue;
        }
        if (whole) {
            if (!row_in) {
                const uint32_t zw = 0x01010101u * (uint32_t)(uint8_t)zp;
                for (c = 0; c < row_bytes; c += 4) {
                    dst = aot_conv_t2_put(zw, dst, &sum);
                }
                continue;
            }
            for (kx = 0; kx < g->filter_w; kx++) {
                const int32_t ix = x0 + kx;
                const int32_t in = ix >= 0 && ix < g->in_w;
                for (c = 0; c < g->in_c; c++) {
                    copy[kx * g->in_c + c] = in ? row[ix * g->in_c + c] : zp;
                }
            }
            dst = aot_conv_t2_expand(copy, row_bytes / 4, dst, &sum);
            continue;
        }
        for (kx = 0; kx < g->filter_w; kx++) {
            const int32_t ix = x0 + kx * g->dilation_w;
            const int32_t in = row_in && ix >= 0 && ix < g->in_w;
            const int8_t* px = row + ix * g->in_c;
            for (c = 0; c < g->in_c; c++) {
                word |= (uint32_t)(uint8_t)(in ? px[c] : zp) << (8 * n);
                n++;
                if (n == 4) {
                    dst = aot_conv_t2_put(word, dst, &sum);
                    word = 0;
                    n = 0;
                }
            }
        }
    }
    if (n != 0) {
        tailp[0] = aot_sxtb16(word);
        tailp[1] = aot_sxtb16_ror8(word);
    }
    return sum * 128;
}

/* Requantizes the accumulators of one channel (multiplier m, add constant d) for the two pixels and stores them;
 * clamping to the activation range gives the saturation's values where that range is all of int8. */
AOT_HOT_INLINE void aot_conv_t2_out(int8_t* o0, int8_t* o1, int32_t acc0, int32_t acc1, int32_t m, int32_t d,
                                    int32_t act_min, int32_t act_max)
{
    const int32_t rs = aot_dsp_shift(d);
    const int32_t v0 = aot_dsp_clamp(aot_dsp_requant(acc0, m, d, rs), act_min, act_max);
    const int32_t v1 = aot_dsp_clamp(aot_dsp_requant(acc1, m, d, rs), act_min, act_max);
    *o0 = (int8_t)v0;
    *o1 = (int8_t)v1;
}

/* The tile's MACs for one channel pair: a[2 p + j] += pixel p times channel j over the quads (per quad the pair's
 * two raw words, then each pixel's (xa, xc)); advances *wp.  K >= 4: at least one quad. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
/* 15 instructions per 16 MACs (the C loop took 21: a load per input word, the pointers' adds). */
AOT_HOT_INLINE void aot_conv_t2_mac(const uint32_t** wp, const uint32_t* x, const uint32_t* xend, int32_t* a)
{
    const uint32_t* w = *wp;
    int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    uint32_t w0, w1, e0, e1, xa, xc;
    __asm__("1:\n\t"
            "ldrd %[w0], %[w1], [%[w]], #8\n\t"
            "ldrd %[xa], %[xc], [%[x]], #8\n\t"
            "smlad %[a0], %[w0], %[xa], %[a0]\n\t"
            "smlad %[a1], %[w1], %[xa], %[a1]\n\t"
            "sxtb16 %[e0], %[w0], ror #8\n\t"
            "sxtb16 %[e1], %[w1], ror #8\n\t"
            "smlad %[a0], %[e0], %[xc], %[a0]\n\t"
            "smlad %[a1], %[e1], %[xc], %[a1]\n\t"
            "ldrd %[xa], %[xc], [%[x]], #8\n\t"
            "smlad %[a2], %[w0], %[xa], %[a2]\n\t"
            "smlad %[a3], %[w1], %[xa], %[a3]\n\t"
            "smlad %[a2], %[e0], %[xc], %[a2]\n\t"
            "smlad %[a3], %[e1], %[xc], %[a3]\n\t"
            "cmp %[x], %[xend]\n\t"
            "bne 1b"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w] "+r"(w), [x] "+r"(x), [w0] "=&r"(w0),
              [w1] "=&r"(w1), [e0] "=&r"(e0), [e1] "=&r"(e1), [xa] "=&r"(xa), [xc] "=&r"(xc)
            : [xend] "r"(xend)
            : "cc", "memory");
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
    *wp = w;
}
#else
AOT_HOT_INLINE void aot_conv_t2_mac(const uint32_t** wp, const uint32_t* x, const uint32_t* xend, int32_t* a)
{
    const uint32_t* w = *wp;
    for (; x != xend; x += AOT_CONV_T2_QW) {
        const uint32_t w0 = w[0], w1 = w[1];
        const uint32_t e0 = aot_sxtb16_ror8(w0), e1 = aot_sxtb16_ror8(w1);
        w += 2;
        a[0] = aot_smlad(e0, x[1], aot_smlad(w0, x[0], a[0]));
        a[1] = aot_smlad(e1, x[1], aot_smlad(w1, x[0], a[1]));
        a[2] = aot_smlad(e0, x[3], aot_smlad(w0, x[2], a[2]));
        a[3] = aot_smlad(e1, x[3], aot_smlad(w1, x[2], a[3]));
    }
    *wp = w;
}
#endif

/* The leftover taps of one channel (its `tail` plain weights end at wend) for the tile's two pixels. */
AOT_HOT_INLINE void aot_conv_t2_tail(const uint32_t* xt, int32_t tail, const int8_t* wend, int32_t* a0, int32_t* a1)
{
    const uint32_t w = aot_read32(wend - 4) >> (8 * (4 - tail));
    const uint32_t we = aot_sxtb16(w);
    const uint32_t wo = aot_sxtb16_ror8(w);
    *a0 = aot_smlad(wo, xt[1], aot_smlad(we, xt[0], *a0));
    *a1 = aot_smlad(wo, xt[3], aot_smlad(we, xt[2], *a1));
}

/* The tile buffer against every output channel, two at a time (per quad the pair's raw words, one for the odd last
 * channel), then the requantization. */
AOT_NOINLINE void aot_conv_t2_gemm(const uint32_t* pairs, int32_t quads, int32_t tail, const uint32_t* filter,
                                   const int8_t* wtail, const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,
                                   const int32_t* corr, int8_t* const* out)
{
    const uint32_t* const xend = pairs + AOT_CONV_T2_QW * quads;
    const int32_t* const mult = rq->multiplier;
    const int32_t* const add = rq->add;
    const int32_t act_min = rq->act_min, act_max = rq->act_max;
    const int32_t k0 = corr[0], k1 = corr[1];
    int8_t* const o0 = out[0];
    int8_t* const o1 = out[1];
    const uint32_t* wp = filter;
    int32_t c;
    for (c = 0; c + 1 < out_c; c += 2) {
        int32_t a[4];
        const int32_t m0 = mult[c], m1 = mult[c + 1], d0 = add[c], d1 = add[c + 1];
        a[0] = bias[c] - k0;
        a[1] = bias[c + 1] - k0;
        a[2] = bias[c] - k1;
        a[3] = bias[c + 1] - k1;
        aot_conv_t2_mac(&wp, pairs, xend, a);
        if (tail) {
            aot_conv_t2_tail(xend, tail, wtail + (c + 1) * tail, &a[0], &a[2]);
            aot_conv_t2_tail(xend, tail, wtail + (c + 2) * tail, &a[1], &a[3]);
        }
        aot_conv_t2_out(o0 + c, o1 + c, a[0], a[2], m0, d0, act_min, act_max);
        aot_conv_t2_out(o0 + c + 1, o1 + c + 1, a[1], a[3], m1, d1, act_min, act_max);
    }
    if (c < out_c) {
        /* An odd last channel: its words follow the pairs' (one per quad). */
        const uint32_t* x = pairs;
        int32_t a0 = bias[c] - k0, a1 = bias[c] - k1;
        for (; x != xend; x += AOT_CONV_T2_QW) {
            const uint32_t w = *wp++;
            const uint32_t e = aot_sxtb16_ror8(w);
            a0 = aot_smlad(e, x[1], aot_smlad(w, x[0], a0));
            a1 = aot_smlad(e, x[3], aot_smlad(w, x[2], a1));
        }
        if (tail) {
            aot_conv_t2_tail(xend, tail, wtail + (c + 1) * tail, &a0, &a1);
        }
        aot_conv_t2_out(o0 + c, o1 + c, a0, a1, mult[c], add[c], act_min, act_max);
    }
}

void aot_conv2d_s8_dsp_t2(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                          const int32_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                          int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                          int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                          int32_t input_zero_point, const int32_t* out_multiplier, const int32_t* out_add,
                          int32_t act_min, int32_t act_max, int32_t* scratch)
{
    const int32_t k = filter_h * filter_w * in_c;
    const int32_t quads = k / 4;
    const int32_t tail = k % 4;
    const int32_t pixels = batches * out_h * out_w;
    uint32_t* const pairs = (uint32_t*)scratch;
    uint32_t* const tailp = pairs + AOT_CONV_T2_QW * quads;
    int8_t* const copy = (int8_t*)(tailp + (tail ? AOT_CONV_T2_QW : 0));
    const int8_t* const wtail = (const int8_t*)filter + 4 * quads * out_c;
    struct aot_conv_geom g;
    struct aot_dsp_rq rq;
    int32_t corr[2];
    int8_t* out[2];
    int32_t p, s;

    g.input = input;
    g.in_h = in_h;
    g.in_w = in_w;
    g.in_c = in_c;
    g.filter_h = filter_h;
    g.filter_w = filter_w;
    g.stride_h = stride_h;
    g.stride_w = stride_w;
    g.dilation_h = dilation_h;
    g.dilation_w = dilation_w;
    g.pad_top = pad_top;
    g.pad_left = pad_left;
    g.zero_point = input_zero_point;
    g.out_h = out_h;
    g.out_w = out_w;
    rq.multiplier = out_multiplier;
    rq.add = out_add;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.full = act_min <= -128 && act_max >= 127;

    for (p = 0; p < pixels; p += 2) {
        for (s = 0; s < 2; s++) {
            /* An odd last tile repeats its last pixel; both copies store the same values. */
            const int32_t q = p + s < pixels ? p + s : pixels - 1;
            corr[s] = aot_conv_t2_im2col(&g, q, pairs + 2 * s, tailp + 2 * s, copy);
            out[s] = output + q * out_c;
        }
        aot_conv_t2_gemm(pairs, quads, tail, (const uint32_t*)filter, wtail, bias, out_c, &rq, corr, out);
    }
}
