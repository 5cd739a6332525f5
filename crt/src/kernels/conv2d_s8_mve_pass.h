/* The int8 Helium convolution's shared body (conv2d_s8_mve.c, conv2d_s8_mve_add.c): geometry, im2col, the
 * gathered rows, the runs of pixel pairs and the layer's pass, included by the translation unit of each entry point
 * so that an image links only the entry points its layers call (a model without a fused residual ADD does not link
 * aot_conv2d_s8_mve_add's code: about 12 KB on the Cortex-M55 at -O2, the file being linked whole without
 * -ffunction-sections).  Everything here is static but the out-of-line im2col and gathers, which conv2d_s8_mve.c
 * defines (AOT_MVE_SHARED empty) and conv2d_s8_mve_add.c only declares (AOT_MVE_CONV_DECLARE).  The units
 * include aot_sched.h first, before this header (tests/compiler/test_crt_codegen.py).
 */
#ifndef AOT_KERNELS_CONV2D_S8_MVE_PASS_H_
#define AOT_KERNELS_CONV2D_S8_MVE_PASS_H_

#include <stddef.h>

#include "aot/kernels/conv2d.h"
/* The straight-line passes of 3x3 filters on 16 and 32 channels (mve_s8.h). */
#define AOT_MVE_RUNS3 1
#include "mve_s8.h"

struct aot_mve_geom {
    const int8_t* input;
    int32_t in_h, in_w, in_c, filter_h, filter_w, out_h, out_w, stride_h, stride_w, dilation_h, dilation_w;
    int32_t pad_top, pad_left;
    int8_t zero_point;
};

/* An output pixel: batch, row, column. */
struct aot_mve_px {
    int32_t b, oy, ox;
};

AOT_HOT_INLINE struct aot_mve_px aot_mve_px_at(const struct aot_mve_geom* g, int32_t pixel)
{
    struct aot_mve_px q;
    q.ox = pixel % g->out_w;
    q.oy = (pixel / g->out_w) % g->out_h;
    q.b = pixel / (g->out_w * g->out_h);
    return q;
}

/* The GEMM row of output pixel `pixel`: in the input (1x1 filter without padding) or gathered into `row`. */
#if defined(AOT_MVE_CONV_DECLARE)
const int8_t* aot_mve_im2col(const struct aot_mve_geom* g, int32_t pixel, int8_t* row, int direct);
#else
AOT_MVE_SHARED const int8_t* aot_mve_im2col(const struct aot_mve_geom* g, int32_t pixel, int8_t* row, int direct)
{
    const struct aot_mve_px q = aot_mve_px_at(g, pixel);
    const int32_t ox = q.ox;
    const int32_t oy = q.oy;
    const int32_t b = q.b;
    const int8_t* in_b = g->input + b * g->in_h * g->in_w * g->in_c;
    const int32_t y0 = oy * g->stride_h - g->pad_top;
    const int32_t x0 = ox * g->stride_w - g->pad_left;
    const int32_t run = g->filter_w * g->in_c;
    /* Without dilation along x: taps lo..hi of every filter row are inside the image's width, bytes a..e of the
     * row (found once per pixel, not per row). */
    const int32_t lo = x0 < 0 ? (-x0 < g->filter_w ? -x0 : g->filter_w) : 0;
    const int32_t hi0 = g->in_w - x0;
    const int32_t hi = hi0 > g->filter_w ? g->filter_w : (hi0 < lo ? lo : hi0);
    const int32_t a = lo * g->in_c;
    const int32_t e = hi * g->in_c;
    int32_t ky, kx;
    if (direct) {
        return in_b + (y0 * g->in_w + x0) * g->in_c;
    }
#if defined(__ARM_FEATURE_MVE)
    if ((g->in_c & 15) == 0 && g->dilation_w == 1 && run == 48) {
        /* Filter rows of three vectors (3x3 on 16 channels: ResNet-8's border windows): each vector inside the
         * image's width or not for the whole window (bytes a..e), so three predicates per pixel, then per filter
         * row three loads predicated on them (the lanes off are never read) and selected against the zero point,
         * straight-line -- a third of the loops' instructions. */
        const int8x16_t zp = vdupq_n_s8(g->zero_point);
        const mve_pred16_t p0 = a <= 0 && e > 0 ? 0xFFFF : 0;
        const mve_pred16_t p1 = a <= 16 && e > 16 ? 0xFFFF : 0;
        const mve_pred16_t p2 = a <= 32 && e > 32 ? 0xFFFF : 0;
        /* The window's first tap, possibly outside the image: only lanes inside it are loaded. */
        uintptr_t src = (uintptr_t)in_b + (uintptr_t)((y0 * g->in_w + x0) * g->in_c);
        const uintptr_t step = (uintptr_t)(g->dilation_h * g->in_w * g->in_c);
        int8_t* dst = row;
        for (ky = 0; ky < g->filter_h; ky++) {
            const int32_t iy = y0 + ky * g->dilation_h;
            if ((uint32_t)iy < (uint32_t)g->in_h) {
                vstrbq_s8(dst, vpselq_s8(vldrbq_z_s8((const int8_t*)src, p0), zp, p0));
                vstrbq_s8(dst + 16, vpselq_s8(vldrbq_z_s8((const int8_t*)(src + 16), p1), zp, p1));
                vstrbq_s8(dst + 32, vpselq_s8(vldrbq_z_s8((const int8_t*)(src + 32), p2), zp, p2));
            } else {
                vstrbq_s8(dst, zp);
                vstrbq_s8(dst + 16, zp);
                vstrbq_s8(dst + 32, zp);
            }
            dst += 48;
            src += step;
        }
        return row;
    }
    if ((g->in_c & 15) == 0 && g->dilation_w == 1) {
        /* Whole vectors per tap (16, 32, 64 ... channels: the border pixels of a 3x3 SAME layer): per filter row
         * the taps inside the image are one unpredicated copy, the others the zero point, 16 bytes at a time --
         * the bounds checked once per row, not per tap. */
        const int8x16_t zp = vdupq_n_s8(g->zero_point);
        int8_t* dst = row;
        for (ky = 0; ky < g->filter_h; ky++) {
            const int32_t iy = y0 + ky * g->dilation_h;
            int32_t j = 0;
            if (iy >= 0 && iy < g->in_h) {
                /* The row's first tap inside the image goes to byte a of the GEMM row. */
                const int8_t* src = in_b + (iy * g->in_w + x0 + lo) * g->in_c;
                for (; j < a; j += 16) {
                    vstrbq_s8(dst + j, zp);
                }
                for (; j < e; j += 16) {
                    vstrbq_s8(dst + j, vldrbq_s8(src + (j - a)));
                }
            }
            for (; j < run; j += 16) {
                vstrbq_s8(dst + j, zp);
            }
            dst += run;
        }
        return row;
    }
#endif
    for (ky = 0; ky < g->filter_h; ky++) {
        const int32_t iy = y0 + ky * g->dilation_h;
        int8_t* dst = row + ky * run;
        if (iy < 0 || iy >= g->in_h) {
            aot_mve_fill(dst, run, g->zero_point);
        } else if (g->dilation_w == 1) {
            aot_mve_fill(dst, a, g->zero_point);
            aot_mve_copy(dst + a, in_b + (iy * g->in_w + x0 + lo) * g->in_c, e - a);
            aot_mve_fill(dst + e, run - e, g->zero_point);
        } else {
            for (kx = 0; kx < g->filter_w; kx++) {
                const int32_t ix = x0 + kx * g->dilation_w;
                if (ix < 0 || ix >= g->in_w) {
                    aot_mve_fill(dst + kx * g->in_c, g->in_c, g->zero_point);
                } else {
                    aot_mve_copy(dst + kx * g->in_c, in_b + (iy * g->in_w + ix) * g->in_c, g->in_c);
                }
            }
        }
    }
    return row;
}
#endif

#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
/* The first tap of output pixel `pixel`'s window when the whole window is inside the image, else 0. */
AOT_HOT_INLINE const int8_t* aot_mve_window(const struct aot_mve_geom* g, int32_t pixel)
{
    const struct aot_mve_px q = aot_mve_px_at(g, pixel);
    const int32_t ox = q.ox;
    const int32_t oy = q.oy;
    const int32_t b = q.b;
    const int32_t y0 = oy * g->stride_h - g->pad_top;
    const int32_t x0 = ox * g->stride_w - g->pad_left;
    if (y0 < 0 || x0 < 0 || y0 + (g->filter_h - 1) * g->dilation_h >= g->in_h || x0 + g->filter_w > g->in_w) {
        return 0;
    }
    return g->input + ((b * g->in_h + y0) * g->in_w + x0) * g->in_c;
}
#endif

#if defined(__ARM_FEATURE_MVE)
/* The gather offsets of a window's K taps from its first tap, 16 per vector (taps past K: 0), when K <= 48 and
 * every tap lies within 256 bytes of the first (a first layer's 3x3 window on 3 channels, a 10x4 one on one
 * channel): fills offs and each tap's row and column in the window (dy, dx) and returns 1, or 2 when windows
 * that leave the image can be gathered too (aot_mve_gather_border: every window row y0 + dy lies in
 * [-pad_top, 255] with in_h < 256 - pad_top (in_h itself a byte), so it is inside the image exactly when
 * (uint8_t)(y0 + dy) < in_h; the same for columns); else 0. */
#if defined(AOT_MVE_CONV_DECLARE)
int aot_mve_gather_offsets(const struct aot_mve_geom* g, int32_t k, uint8_t offs[48], uint8_t dy[48], uint8_t dx[48]);
#else
AOT_MVE_SHARED int aot_mve_gather_offsets(const struct aot_mve_geom* g, int32_t k, uint8_t offs[48], uint8_t dy[48],
                                          uint8_t dx[48])
{
    int32_t ky, kx, c, j = 0;
    const int32_t last =
        ((g->filter_h - 1) * g->dilation_h * g->in_w + (g->filter_w - 1) * g->dilation_w) * g->in_c + g->in_c - 1;
    const int32_t y_end = (g->out_h - 1) * g->stride_h - g->pad_top + (g->filter_h - 1) * g->dilation_h;
    const int32_t x_end = (g->out_w - 1) * g->stride_w - g->pad_left + (g->filter_w - 1) * g->dilation_w;
    if (k > 48 || last > 255) {
        return 0;
    }
    memset(offs, 0, 48);
    memset(dy, 0, 48);
    memset(dx, 0, 48);
    for (ky = 0; ky < g->filter_h; ky++) {
        for (kx = 0; kx < g->filter_w; kx++) {
            for (c = 0; c < g->in_c; c++) {
                dy[j] = (uint8_t)(ky * g->dilation_h);
                dx[j] = (uint8_t)(kx * g->dilation_w);
                offs[j++] = (uint8_t)((ky * g->dilation_h * g->in_w + kx * g->dilation_w) * g->in_c + c);
            }
        }
    }
    if (y_end <= 255 && x_end <= 255 && g->pad_top >= 0 && g->pad_left >= 0 && g->in_h < 256 - g->pad_top &&
        g->in_w < 256 - g->pad_left) {
        return 2;
    }
    return 1;
}
#endif

/* Output pixel `pixel`'s GEMM row when its window leaves the image (aot_mve_gather_offsets returned 2): the taps inside
 * gathered, the others set to the input zero point, zeros from K to kp. */
#if defined(AOT_MVE_CONV_DECLARE)
const int8_t* aot_mve_gather_border(const struct aot_mve_geom* g, int32_t pixel, const uint8_t* offs, const uint8_t* dy,
                                    const uint8_t* dx, int32_t k, int32_t kp, int8_t* row);
#else
AOT_MVE_SHARED const int8_t* aot_mve_gather_border(const struct aot_mve_geom* g, int32_t pixel, const uint8_t* offs,
                                                   const uint8_t* dy, const uint8_t* dx, int32_t k, int32_t kp,
                                                   int8_t* row)
{
    const struct aot_mve_px q = aot_mve_px_at(g, pixel);
    const int32_t y0 = q.oy * g->stride_h - g->pad_top;
    const int32_t x0 = q.ox * g->stride_w - g->pad_left;
    /* The window's first tap, possibly outside the image: only lanes inside it are loaded. */
    const int8_t* base =
        (const int8_t*)((uintptr_t)g->input + (uintptr_t)(((q.b * g->in_h + y0) * g->in_w + x0) * g->in_c));
    const int8x16_t zp = vdupq_n_s8(g->zero_point);
    int32_t j;
    for (j = 0; j < kp; j += 16) {
        const mve_pred16_t in_k = vctp8q((uint32_t)(k > j ? k - j : 0));
        const mve_pred16_t out = vcmpcsq_n_u8(vaddq_n_u8(vldrbq_u8(dy + j), (uint8_t)y0), (uint8_t)g->in_h) |
                                 vcmpcsq_n_u8(vaddq_n_u8(vldrbq_u8(dx + j), (uint8_t)x0), (uint8_t)g->in_w);
        const mve_pred16_t load = (mve_pred16_t)(in_k & ~out);
        /* Lanes past K keep the gather's zero; taps outside the image take the zero point. */
        vstrbq_p_s8(
            row + j,
            vpselq_s8(vldrbq_gather_offset_z_s8(base, vldrbq_u8(offs + j), load), zp, (mve_pred16_t)(load | ~in_k)),
            vctp8q((uint32_t)(kp - j)));
    }
    return row;
}
#endif

/* Output pixel `pixel`'s GEMM row gathered into `row` (VLDRB gathers, 16 taps each; zeros from K to kp) when its
 * window is inside the image; 0 when it is not (then aot_mve_im2col pads it). */
AOT_HOT_INLINE const int8_t* aot_mve_gather_row(const struct aot_mve_geom* g, int32_t pixel, const uint8_t* offs,
                                                int32_t k, int32_t kp, int8_t* row)
{
    const struct aot_mve_px q = aot_mve_px_at(g, pixel);
    const int32_t ox = q.ox;
    const int32_t oy = q.oy;
    const int32_t b = q.b;
    const int32_t y0 = oy * g->stride_h - g->pad_top;
    const int32_t x0 = ox * g->stride_w - g->pad_left;
    const int8_t* base;
    int32_t j;
    if (y0 < 0 || x0 < 0 || y0 + (g->filter_h - 1) * g->dilation_h >= g->in_h ||
        x0 + (g->filter_w - 1) * g->dilation_w >= g->in_w) {
        return 0;
    }
    base = g->input + ((b * g->in_h + y0) * g->in_w + x0) * g->in_c;
    if ((kp & 15) == 0) {
        /* Whole vectors (kp <= 48): unrolled, the stores unpredicated, the lanes past K of the last gathered as
         * zero (the row's padding). */
        const int32_t last = kp - 16;
        if (last >= 16) {
            vstrbq_s8(row, vldrbq_gather_offset_s8(base, vldrbq_u8(offs)));
        }
        if (last >= 32) {
            vstrbq_s8(row + 16, vldrbq_gather_offset_s8(base, vldrbq_u8(offs + 16)));
        }
        vstrbq_s8(row + last, vldrbq_gather_offset_z_s8(base, vldrbq_u8(offs + last), vctp8q((uint32_t)(k - last))));
        return row;
    }
    for (j = 0; j < k; j += 16) {
        vstrbq_p_s8(row + j, vldrbq_gather_offset_z_s8(base, vldrbq_u8(offs + j), vctp8q((uint32_t)(k - j))),
                    vctp8q((uint32_t)(kp - j)));
    }
    return row;
}
#endif

#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
/* One pixel's block of the fused ADD in the loop of aot_mve_runs_pairs: its 4 table indices (%[s], 16 bytes on)
 * and residual bytes (R: the second table, at tab2) gathered, summed and rescaled as aot_mve_add_out, stored at O. */
#define AOT_MVE_ADD_PIXEL_ASM(O, R)                                                                                    \
    "vldrw.32 q1, [%[s]], #16\n\t"                                                                                     \
    "vldrb.u32 q2, [%[" R "]], #4\n\t"                                                                                 \
    "vldrw.u32 q0, [%[tab], q1, uxtw #2]\n\t"                                                                          \
    "vldrw.u32 q1, [%[tab2], q2, uxtw #2]\n\t"                                                                         \
    "vadd.i32 q0, q0, q1\n\t"                                                                                          \
    "vshr.s32 q1, q0, #31\n\t"                                                                                         \
    "vqrdmulh.s32 q0, q0, %q[om]\n\t"                                                                                  \
    "vadd.i32 q0, q0, q1\n\t"                                                                                          \
    "vadd.i32 q0, q0, %q[oa]\n\t"                                                                                      \
    "vshl.s32 q0, q0, %q[osh]\n\t"                                                                                     \
    "vmax.s32 q0, q0, %q[lo]\n\t"                                                                                      \
    "vmin.s32 q0, q0, %q[hi]\n\t"                                                                                      \
    "vstrb.32 q0, [%[" O "]], #4\n\t"

/* The block routine of aot_mve_runs_pairs: 1, 2: three runs of 3 or 6 passes; 3, 4, 5: one run of 2, 4 or any
 * passes; 0: aot_mve_dot_blocks_any. */
AOT_HOT_INLINE int aot_mve_runs_kind(int32_t rows, int32_t passes)
{
    if (rows == 3) {
        return passes == 3 ? 1 : passes == 6 ? 2 : 0;
    }
    if (rows == 1) {
        return passes == 2 ? 3 : passes == 4 ? 4 : 5;
    }
    return 0;
}

/* `pairs` pixel pairs along one output row whose windows are all inside the image (filter rows of a multiple of 16
 * bytes read in place: `rows` runs of run_len bytes, `skip` bytes apart), the first pair's windows at w0 and
 * w0 + d, each next pair `step` bytes on; right shifts, per-channel constants, out_c a multiple of 4; outputs from
 * out (and with `fused` the residual from res).  The block routine, its arguments and the constants are chosen and
 * set once per run of pairs, where the pixel loop set them per pair (about 80 instructions a pair, 120 with the
 * fused ADD).  The wrappers take q by value: given the caller's address, GCC would reload it after every int8
 * store there.  dot: aot_mve_runs_kind, a constant in the loops of the commonest kinds (a call chosen per pair costs 4
 * or 5 instructions; an indirect one leaves the static stack bound open).  out_c <= 4 * AOT_MVE_BLOCKS: one block call
 * a pair.  The requantization loops are written here (AOT_MVE_RQ_PAIR_ASM, as aot_mve_store_blocks_right,
 * aot_mve_index_blocks_right and aot_mve_add_blocks) so that their constants are made once per run of pairs. */
AOT_ALWAYS_INLINE void aot_mve_runs_pairs(const int8_t* w0, int32_t d, int32_t step, int32_t pairs, int32_t rows,
                                          int32_t run_len, int32_t skip, const int8_t* filter, int32_t out_c,
                                          const struct aot_mve_rq* q, int8_t* out, const int8_t* res, int32_t* sums,
                                          int fused, int dot)
{
    const int32_t nb = out_c >> 2;
    const int32x4_t lo = vdupq_n_s32(q->act_min);
    const int32x4_t hi = vdupq_n_s32(q->act_max);
    const int32_t off = q->out_offset;
    const int32_t* tab = q->add_tab;
    struct aot_mve_blocks_args a;
    int32_t i;
    a.passes = run_len >> 4;
    a.sums = sums;
    a.skip = skip;
    a.runs = rows;
    for (i = 0; i < pairs; i++) {
        const int32_t* sp = sums;
        const int32_t* b = q->bias;
        const int32_t* m = q->multiplier;
        const int32_t* sh = q->shift;
        int32_t n = nb;
        a.x0 = w0;
        a.x1 = w0 + d;
        a.blocks = nb;
        if (dot == 1) {
            aot_mve_dot_blocks_runs3p3(&a, filter);
        } else if (dot == 2) {
            aot_mve_dot_blocks_runs3p6(&a, filter);
        } else if (dot == 3) {
            aot_mve_dot_blocks_row2(&a, filter);
        } else if (dot == 4) {
            aot_mve_dot_blocks_row4(&a, filter);
        } else if (dot == 5) {
            aot_mve_dot_blocks_row(&a, filter);
        } else {
            aot_mve_dot_blocks_any(&a, filter);
        }
        if (fused) {
            __asm__ volatile(AOT_MVE_RQ_PAIR_ASM "vstrw.32 q3, [%[s], #-32]\n\t"
                                                 "vstrw.32 q4, [%[s], #-16]\n\t"
                                                 "subs %[n], %[n], #1\n\t"
                                                 "bne 1b"
                             : [s] "+r"(sp), [b] "+r"(b), [m] "+r"(m), [sh] "+r"(sh), [n] "+r"(n)
                             : [off] "r"(off), [lo] "w"(lo), [hi] "w"(hi)
                             : "q0", "q1", "q2", "q3", "q4", "memory", "cc");
            /* Then both pixels' values and residual bytes index the tables (aot_mve_add_blocks for the two in one
             * loop); each residual's 4 bytes are read before the 4 outputs at the same place are stored. */
            /* (The ADD's constants made per pair: kept across the block calls, they took 80 bytes of stack.) */
            const int32x4_t alo = vdupq_n_s32(q->add->act_min);
            const int32x4_t ahi = vdupq_n_s32(q->add->act_max);
            const int32x4_t om = vdupq_n_s32(q->add->out_multiplier);
            const int32x4_t oa = vdupq_n_s32(q->add->out_add);
            const int32x4_t osh = vdupq_n_s32(-q->add->out_shift);
            const uint8_t* r0 = (const uint8_t*)res;
            const uint8_t* r1 = (const uint8_t*)res + out_c;
            int8_t* o0 = out;
            int8_t* o1 = out + out_c;
            sp = sums;
            n = nb;
            __asm__ volatile("1:\n\t" AOT_MVE_ADD_PIXEL_ASM("o0", "r0")
                                 AOT_MVE_ADD_PIXEL_ASM("o1", "r1") "subs %[n], %[n], #1\n\t"
                                                                   "bne 1b"
                             : [s] "+r"(sp), [o0] "+l"(o0), [o1] "+l"(o1), [r0] "+l"(r0), [r1] "+l"(r1), [n] "+r"(n)
                             : [lo] "w"(alo), [hi] "w"(ahi), [tab] "r"(tab), [tab2] "r"(tab + 256), [om] "w"(om),
                               [oa] "w"(oa), [osh] "w"(osh)
                             : "q0", "q1", "q2", "memory", "cc");
        } else {
            aot_mve_rq_pair_blocks(sp, n, b, m, sh, off, lo, hi, out, out + out_c);
        }
        out += 2 * out_c;
        res += 2 * out_c;
        w0 += step;
    }
}

__attribute__((noinline)) static void aot_mve_runs_pairs_plain(const int8_t* w0, int32_t d, int32_t step, int32_t pairs,
                                                               int32_t rows, int32_t run_len, int32_t skip,
                                                               const int8_t* filter, int32_t out_c, struct aot_mve_rq q,
                                                               int8_t* out, int32_t* sums)
{
    const int dot = aot_mve_runs_kind(rows, run_len >> 4);
    if (dot == 1) {
        aot_mve_runs_pairs(w0, d, step, pairs, rows, run_len, skip, filter, out_c, &q, out, out, sums, 0, 1);
    } else if (dot == 2) {
        aot_mve_runs_pairs(w0, d, step, pairs, rows, run_len, skip, filter, out_c, &q, out, out, sums, 0, 2);
    } else {
        aot_mve_runs_pairs(w0, d, step, pairs, rows, run_len, skip, filter, out_c, &q, out, out, sums, 0, dot);
    }
}

__attribute__((noinline)) static void aot_mve_runs_pairs_fused(const int8_t* w0, int32_t d, int32_t step, int32_t pairs,
                                                               int32_t rows, int32_t run_len, int32_t skip,
                                                               const int8_t* filter, int32_t out_c, struct aot_mve_rq q,
                                                               int8_t* out, const int8_t* res, int32_t* sums)
{
    const int dot = aot_mve_runs_kind(rows, run_len >> 4);
    if (dot == 1) {
        aot_mve_runs_pairs(w0, d, step, pairs, rows, run_len, skip, filter, out_c, &q, out, res, sums, 1, 1);
    } else {
        aot_mve_runs_pairs(w0, d, step, pairs, rows, run_len, skip, filter, out_c, &q, out, res, sums, 1, dot);
    }
}
#endif

/* The whole layer; `fused` (a constant in each entry point) adds the residual, `right` (a constant) says every
 * shift is a right shift, `tail` (a constant) that im2col rows are zero-padded to aot_mve_row_bytes for the block
 * loop's unpredicated K % 16 tail (aot_mve_dot_blocks_tail). */
AOT_ALWAYS_INLINE void aot_conv2d_s8_mve_pass(const struct aot_mve_geom* g, const int8_t* filter, int8_t* output,
                                              int32_t batches, int32_t out_c, const struct aot_mve_rq* rq,
                                              int8_t* scratch, const int8_t* residual, int fused, int right, int tail)
{
    const int32_t k = g->filter_h * g->filter_w * g->in_c;
    const int32_t pixels = batches * g->out_h * g->out_w;
    const int direct = g->filter_h == 1 && g->filter_w == 1 && g->pad_top == 0 && g->pad_left == 0;
    /* A pointwise layer (1x1, stride 1, the image's size): pixel p's row is the p-th of the input, no division. */
    const int flat = direct && g->stride_h == 1 && g->stride_w == 1 && g->out_h == g->in_h && g->out_w == g->in_w;
    /* Row bytes in scratch; kp > k: rows zero-padded for the block loop's unpredicated tail. */
    const int32_t kp = tail ? aot_mve_row_bytes(k, out_c) : k;
    int32_t p;
#if defined(__ARM_FEATURE_MVE)
    /* Short windows (K <= 48, within 256 bytes) gathered straight from the image where they are inside it. */
    uint8_t offs[48], dy[48], dx[48];
    const int gather = direct ? 0 : aot_mve_gather_offsets(g, k, offs, dy, dx);
#endif
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
    /* Filter rows of whole 16-byte passes read in place when both windows are inside the image (never with padded
     * rows: K is then no multiple of 16). */
    /* (A strided 1x1 layer too -- ResNet's shortcuts: rows read in place, pairs stepped along the output row without
     * dividing per pixel -- when aot_mve_runs_pairs takes it.) */
    const int runs = !tail && (!direct || (!flat && right && rq->per_channel && out_c <= 4 * AOT_MVE_BLOCKS)) &&
                     g->dilation_w == 1 && (g->filter_w * g->in_c) % 16 == 0 && out_c % 4 == 0;
#endif
    for (p = 0; p + 2 <= pixels; p += 2) {
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
        if (runs) {
            /* The sums of aot_mve_runs_pairs, in this frame where the other paths' (aot_mve_gemm_k16) take the
             * same slot: in its own, they made the stack 512 bytes deeper. */
            int32_t sums[8 * AOT_MVE_BLOCKS];
            const int8_t* w0 = aot_mve_window(g, p);
            const int8_t* w1 = aot_mve_window(g, p + 1);
            if (w0 && w1) {
                /* The next m pairs of this output row keep their windows inside the image too: their windows
                 * step 2 * stride_w pixels along the input row, found without dividing again. */
                const int32_t ox = p % g->out_w;
                /* One past the last output column whose window ends inside the image's width (and the row). */
                const int32_t ox_fit = (g->in_w - g->filter_w + g->pad_left) / g->stride_w + 1;
                const int32_t ox_end = ox_fit < g->out_w ? ox_fit : g->out_w;
                const int32_t m = ox + 1 < ox_end ? (ox_end - ox - 2) >> 1 : 0;
                const int32_t step = 2 * g->stride_w * g->in_c;
                int32_t j;
                if (right && rq->per_channel && out_c <= 4 * AOT_MVE_BLOCKS) {
                    const int32_t run_len = g->filter_w * g->in_c;
                    const int32_t skip = g->dilation_h * g->in_w * g->in_c - run_len;
                    if (fused) {
                        aot_mve_runs_pairs_fused(w0, (int32_t)(w1 - w0), step, m + 1, g->filter_h, run_len, skip,
                                                 filter, out_c, *rq, output + p * out_c, residual + p * out_c, sums);
                    } else {
                        aot_mve_runs_pairs_plain(w0, (int32_t)(w1 - w0), step, m + 1, g->filter_h, run_len, skip,
                                                 filter, out_c, *rq, output + p * out_c, sums);
                    }
                    p += 2 * m;
                    continue;
                }
                for (j = 0;; j++) {
                    aot_mve_gemm_runs(w0, w1, g->filter_h, g->filter_w * g->in_c, g->dilation_h * g->in_w * g->in_c,
                                      filter, out_c, rq, output + p * out_c, output + (p + 1) * out_c,
                                      fused ? residual + p * out_c : 0, fused ? residual + (p + 1) * out_c : 0, fused,
                                      right);
                    if (j >= m) {
                        break;
                    }
                    p += 2;
                    w0 += step;
                    w1 += step;
                }
                continue;
            }
            if (!direct && right && rq->per_channel && out_c <= 4 * AOT_MVE_BLOCKS) {
                /* Windows leaving the image: both rows through im2col, then the pair as filter_h runs without
                 * skip (the straight-line block routines of 3 runs). */
                const int32_t run_len = g->filter_w * g->in_c;
                aot_mve_im2col(g, p, scratch, 0);
                aot_mve_im2col(g, p + 1, scratch + k, 0);
                if (fused) {
                    aot_mve_runs_pairs_fused(scratch, k, 0, 1, g->filter_h, run_len, 0, filter, out_c, *rq,
                                             output + p * out_c, residual + p * out_c, sums);
                } else {
                    aot_mve_runs_pairs_plain(scratch, k, 0, 1, g->filter_h, run_len, 0, filter, out_c, *rq,
                                             output + p * out_c, sums);
                }
                continue;
            }
        }
#endif
        const int8_t* x0 = NULL;
        const int8_t* x1 = NULL;
        if (flat) {
            x0 = g->input + p * g->in_c;
            x1 = x0 + g->in_c;
        }
#if defined(__ARM_FEATURE_MVE)
        if (gather) {
            x0 = aot_mve_gather_row(g, p, offs, k, kp, scratch);
            x1 = aot_mve_gather_row(g, p + 1, offs, k, kp, scratch + kp);
            if (gather == 2) {
                x0 = x0 ? x0 : aot_mve_gather_border(g, p, offs, dy, dx, k, kp, scratch);
                x1 = x1 ? x1 : aot_mve_gather_border(g, p + 1, offs, dy, dx, k, kp, scratch + kp);
            }
        }
#endif
        if (!x0) {
            x0 = aot_mve_im2col(g, p, scratch, direct);
            if (tail) {
                aot_mve_fill(scratch + k, kp - k, 0);
            }
        }
        if (!x1) {
            x1 = aot_mve_im2col(g, p + 1, scratch + kp, direct);
            if (tail) {
                aot_mve_fill(scratch + kp + k, kp - k, 0);
            }
        }
        aot_mve_gemm(x0, x1, filter, k, out_c, rq, output + p * out_c, output + (p + 1) * out_c,
                     fused ? residual + p * out_c : NULL, fused ? residual + (p + 1) * out_c : NULL, 1, fused, right,
                     tail);
    }
    if (p < pixels) {
        const int8_t* x0 = aot_mve_im2col(g, p, scratch, direct);
        aot_mve_gemm(x0, x0, filter, k, out_c, rq, output + p * out_c, output + p * out_c,
                     fused ? residual + p * out_c : NULL, NULL, 0, fused, right, 0);
    }
}

#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
/* aot_conv2d_s8_mve_pass for a layer whose every pixel pair aot_mve_runs_pairs takes, as the compiler found from the
 * shapes (mve_runs_entry in compiler/ops/common/mve_layout.py): right shifts, out_c a multiple of 4 up to
 * 4 * AOT_MVE_BLOCKS, filter rows of whole 16-byte passes, dilation 1 along x, an even pixel count, and a 1x1 filter
 * only strided or smaller than the image with every window inside it.  The same pairs, runs and arithmetic as that
 * pass, without its general GEMM: an entry point over this alone does not link the rest of the pass. */
AOT_ALWAYS_INLINE void aot_conv2d_s8_mve_runs_pass(const struct aot_mve_geom* g, const int8_t* filter, int8_t* output,
                                                   int32_t batches, int32_t out_c, const struct aot_mve_rq* rq,
                                                   int8_t* scratch, const int8_t* residual, int fused)
{
    const int32_t k = g->filter_h * g->filter_w * g->in_c;
    const int32_t pixels = batches * g->out_h * g->out_w;
    const int32_t run_len = g->filter_w * g->in_c;
    int32_t p;
    for (p = 0; p < pixels; p += 2) {
        int32_t sums[8 * AOT_MVE_BLOCKS];
        const int8_t* w0 = aot_mve_window(g, p);
        const int8_t* w1 = aot_mve_window(g, p + 1);
        if (w0 && w1) {
            const int32_t ox = p % g->out_w;
            const int32_t ox_fit = (g->in_w - g->filter_w + g->pad_left) / g->stride_w + 1;
            const int32_t ox_end = ox_fit < g->out_w ? ox_fit : g->out_w;
            const int32_t m = ox + 1 < ox_end ? (ox_end - ox - 2) >> 1 : 0;
            const int32_t step = 2 * g->stride_w * g->in_c;
            const int32_t skip = g->dilation_h * g->in_w * g->in_c - run_len;
            if (fused) {
                aot_mve_runs_pairs_fused(w0, (int32_t)(w1 - w0), step, m + 1, g->filter_h, run_len, skip, filter, out_c,
                                         *rq, output + p * out_c, residual + p * out_c, sums);
            } else {
                aot_mve_runs_pairs_plain(w0, (int32_t)(w1 - w0), step, m + 1, g->filter_h, run_len, skip, filter, out_c,
                                         *rq, output + p * out_c, sums);
            }
            p += 2 * m;
            continue;
        }
        aot_mve_im2col(g, p, scratch, 0);
        aot_mve_im2col(g, p + 1, scratch + k, 0);
        if (fused) {
            aot_mve_runs_pairs_fused(scratch, k, 0, 1, g->filter_h, run_len, 0, filter, out_c, *rq, output + p * out_c,
                                     residual + p * out_c, sums);
        } else {
            aot_mve_runs_pairs_plain(scratch, k, 0, 1, g->filter_h, run_len, 0, filter, out_c, *rq, output + p * out_c,
                                     sums);
        }
    }
}
#endif

/* `right` (a constant in each entry point): the compiler found every channel's shift a right shift (or its
 * multiplier 0) and called the right-shift entry point; the general pass is in units of its own
 * (conv2d_s8_mve_left.c, conv2d_s8_mve_left_add.c), so images whose layers all shift right do not link it. */
AOT_ALWAYS_INLINE void aot_conv2d_s8_mve_body(const struct aot_mve_geom* g, const int8_t* filter, int8_t* output,
                                              int32_t batches, int32_t out_c, const struct aot_mve_rq* rq,
                                              int8_t* scratch, const int8_t* residual, int fused, int right)
{
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
    /* K % 16 tails in the block loop (a first layer: 3x3 taps on 3 channels) for the common case only -- no fused
     * ADD, right shifts -- to keep the code small; the others take the predicated tail of aot_mve_dot4. */
    const int32_t k = g->filter_h * g->filter_w * g->in_c;
    const int direct = g->filter_h == 1 && g->filter_w == 1 && g->pad_top == 0 && g->pad_left == 0;
    if (!fused && right && !direct && aot_mve_row_bytes(k, out_c) != k) {
        aot_conv2d_s8_mve_pass(g, filter, output, batches, out_c, rq, scratch, residual, 0, 1, 1);
        return;
    }
#endif
    aot_conv2d_s8_mve_pass(g, filter, output, batches, out_c, rq, scratch, residual, fused, right, 0);
}

#define AOT_CONV2D_S8_MVE_SETUP                                                                                        \
    struct aot_mve_geom g;                                                                                             \
    struct aot_mve_rq rq;                                                                                              \
    g.input = input;                                                                                                   \
    g.in_h = in_h;                                                                                                     \
    g.in_w = in_w;                                                                                                     \
    g.in_c = in_c;                                                                                                     \
    g.filter_h = filter_h;                                                                                             \
    g.filter_w = filter_w;                                                                                             \
    g.out_h = out_h;                                                                                                   \
    g.out_w = out_w;                                                                                                   \
    g.stride_h = stride_h;                                                                                             \
    g.stride_w = stride_w;                                                                                             \
    g.dilation_h = dilation_h;                                                                                         \
    g.dilation_w = dilation_w;                                                                                         \
    g.pad_top = pad_top;                                                                                               \
    g.pad_left = pad_left;                                                                                             \
    g.zero_point = (int8_t)input_zero_point;                                                                           \
    rq.bias = bias;                                                                                                    \
    rq.multiplier = out_multiplier;                                                                                    \
    rq.shift = out_shift;                                                                                              \
    rq.per_channel = 1;                                                                                                \
    rq.out_offset = output_offset;                                                                                     \
    rq.act_min = act_min;                                                                                              \
    rq.act_max = act_max;                                                                                              \
    rq.add_tab = NULL

#endif /* AOT_KERNELS_CONV2D_S8_MVE_PASS_H_ */
