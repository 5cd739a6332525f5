/* Fast float32 depthwise convolution, depth multiplier 1.  Filters of 3 rows at stride 1 and dilation 1 down the
 * columns slide down each output column (aot_dw_f32_slide): a group of channels (4 on Helium, 2 on an FPU) with the
 * column's taps' weights held, three outputs live, each input row loaded once per tap column for all three; the
 * whole column one asm block on Helium and on the FPUs; on Helium two adjacent columns inside the image at once
 * where they can (aot_dw_mve_pair: each weight vector serves both); on Helium a SAME layer with at least 5 columns
 * takes 4 pixels of one channel a vector instead (aot_dw_mve_lanes: the weights as scalars, the inputs gathered and
 * the outputs scattered in place; an upper bound of the range a pass after).  Everything else (other filters, strides
 * and dilations down the columns, outputs of 1 tap column, the channels after the last whole group, FPv4's ranges other
 * than ReLU and none) takes pairs of output pixels of a column times 4 channels, one filter tap at a time (its 4
 * weights loaded once for both pixels), over the rectangle of taps inside the image (the reference kernel skips the
 * others); a channel count not a multiple of 4 ends with a predicated (MVE) or shorter group of taps checked one by
 * one. Each output is the sum of its taps in the reference kernel's (fy, fx) order, each step a fused multiply-add:
 * Helium's VFMA.F32 on 4 channels, elsewhere VFMA.F32 (an FPU with fused multiply-add) or fmaf (correctly rounded
 * in C on the host), so every build gives the same bits.  The pairs of pixels start from 0.0f and add the bias
 * to the finished sum (the reference's order); the column slides (and pairs of columns) start each sum from the
 * bias (+0.0f without one), which saves the bias's addition at each output row: within the float tolerance of the
 * reference, and crt/tests/f32_kernels_test.c checks each output exactly against one of the two orders.
 * The body (shared code; with AOT_DW_F32_PART, defined by the part units before including it, that only) of three
 * units: depthwise_conv2d_f32_vec.c (aot_depthwise_conv2d_f32_vec, every form but the FPU cores'
 * single column of 3 tap columns) and depthwise_conv2d_f32_vec3.c (AOT_DW_F32_SLIDE3_UNIT: that column's slide,
 * aot_dw_fpu_slide3, 1.2-1.5 KB, and the entry point aot_depthwise_conv2d_f32_vec3 that links it), and on Helium
 * depthwise_conv2d_f32_vec_lanes.c (AOT_DW_F32_LANES_UNIT: the lanes, aot_dw_lanes_run, and the entry point
 * aot_depthwise_conv2d_f32_vec_lanes, which runs them without linking the column forms). */
#ifndef AOT_DEPTHWISE_CONV2D_F32_VEC_BODY_H
#define AOT_DEPTHWISE_CONV2D_F32_VEC_BODY_H
#include "aot_sched.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "aot/kernels/depthwise_conv2d.h"
#include "f32_out.h"

/* A part unit (depthwise_conv2d_f32_vec3.c, depthwise_conv2d_f32_vec_lanes.c): the shared inline code and the
 * part's own functions only. */
#if defined(AOT_DW_F32_SLIDE3_UNIT) || defined(AOT_DW_F32_LANES_UNIT)
#define AOT_DW_F32_PART 1
#endif
/* The parts' functions: defined in their units, weak references in the kernel's (found if their unit is linked). */
#if defined(AOT_DW_F32_PART)
#define AOT_DW_F32_WEAK
#else
#define AOT_DW_F32_WEAK __attribute__((weak))
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>
#define AOT_DW_F32_MVE 1
#if defined(__OPTIMIZE__)
/* The column slide's assembly (not at -O0, which passes no constant to its "i" operands): aot_dw_mve_slide. */
#define AOT_DW_F32_MVE_ASM 1
#endif
#endif

#if !defined(AOT_DW_F32_PART) /* the pixels' forms: depthwise_conv2d_f32_vec.c */
/* 4 channels of one or two pixels: acc0, acc1 += the window taps of input columns x0, x1 (row y0 of the window's
 * top), channels c..c+3 (n < 4: the first n only). */
static void aot_dw_f32_quad(const float* in_b, int32_t in_h, int32_t in_w, int32_t ch, const float* w, int32_t filter_h,
                            int32_t filter_w, int32_t dilation_h, int32_t dilation_w, int32_t y0, int32_t x0,
                            int32_t x1, int32_t pair, int32_t n, float* acc)
{
    int32_t fy, fx, j;
#if defined(AOT_DW_F32_MVE)
    const mve_pred16_t p = vctp32q((uint32_t)n);
    float32x4_t s0 = vdupq_n_f32(0.0f), s1 = vdupq_n_f32(0.0f);
#else
    float s0[4] = {0.0f, 0.0f, 0.0f, 0.0f}, s1[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#endif
    for (fy = 0; fy < filter_h; fy++) {
        const int32_t iy = y0 + dilation_h * fy;
        if (iy < 0 || iy >= in_h) {
            continue;
        }
        for (fx = 0; fx < filter_w; fx++) {
            const int32_t ix0 = x0 + dilation_w * fx, ix1 = x1 + dilation_w * fx;
            const int32_t u0 = ix0 >= 0 && ix0 < in_w, u1 = pair && ix1 >= 0 && ix1 < in_w;
            const float* wt = w + (fy * filter_w + fx) * ch;
            const float* a0 = in_b + (iy * in_w + ix0) * ch;
            const float* a1 = in_b + (iy * in_w + ix1) * ch;
#if defined(AOT_DW_F32_MVE)
            const float32x4_t wv = vldrwq_z_f32(wt, p);
            if (u0) {
                s0 = vfmaq_m_f32(s0, vldrwq_z_f32(a0, p), wv, p);
            }
            if (u1) {
                s1 = vfmaq_m_f32(s1, vldrwq_z_f32(a1, p), wv, p);
            }
#else
            for (j = 0; j < n; j++) {
                if (u0) {
                    s0[j] = fmaf(a0[j], wt[j], s0[j]);
                }
                if (u1) {
                    s1[j] = fmaf(a1[j], wt[j], s1[j]);
                }
            }
#endif
        }
    }
#if defined(AOT_DW_F32_MVE)
    (void)j;
    vstrwq_f32(acc, s0);
    vstrwq_f32(acc + 4, s1);
#else
    for (j = 0; j < 4; j++) {
        acc[j] = s0[j];
        acc[4 + j] = s1[j];
    }
#endif
}

/* The filter taps of a window inside the image along one axis: [lo, hi) for a window starting at `pos` of an axis
 * of `size` with dilation `dil` and `taps` taps. */
static void aot_dw_f32_range(int32_t pos, int32_t size, int32_t dil, int32_t taps, int32_t* lo, int32_t* hi)
{
    int32_t l = 0, h = taps;
    while (l < taps && pos + dil * l < 0) {
        l++;
    }
    while (h > l && pos + dil * (h - 1) >= size) {
        h--;
    }
    *lo = l;
    *hi = h;
}

/* Two pixels (a1 = a0 + step; step 0: one pixel) with the same taps inside the image, `rows` x `cols` of them, 4
 * channels: acc[0..3], acc[4..7] = their sums from 0.0f, the reference order.  a0 and w at the first tap; along a row
 * the input advances by `dil` floats and the weights by `ch`; rows by `row` floats of input and `wrow` of weights. */
static void aot_dw_f32_rect4(const float* a0, int32_t step, const float* w, int32_t rows, int32_t cols, int32_t dil,
                             int32_t ch, int32_t row, int32_t wrow, float* acc)
{
    int32_t fy, fx;
#if defined(AOT_DW_F32_MVE)
    float32x4_t s0 = vdupq_n_f32(0.0f), s1 = vdupq_n_f32(0.0f);
    for (fy = 0; fy < rows; fy++, a0 += row, w += wrow) {
        const float* a = a0;
        const float* wt = w;
        for (fx = 0; fx < cols; fx++, a += dil, wt += ch) {
            const float32x4_t wv = vld1q_f32(wt);
            s0 = vfmaq_f32(s0, vld1q_f32(a), wv);
            s1 = vfmaq_f32(s1, vld1q_f32(a + step), wv);
        }
    }
    vst1q_f32(acc, s0);
    vst1q_f32(acc + 4, s1);
#elif defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA) && defined(__OPTIMIZE__)
    /* Not at -O0: its ten register operands do not fit beside the frame pointer there (the C below is the same
     * fused multiply-adds). s0-s7 the sums, s8-s11 the weights, s12-s15 and s16-s19 the two pixels' inputs: VLDM per 4
     * values. */
    const int32_t dil_b = dil * 4, ch_b = ch * 4, row_b = (row - cols * dil) * 4, wrow_b = (wrow - cols * ch) * 4;
    const float* a1 = a0 + step;
    static const float aot_dw_f32_zeros[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}; /* the sums' start */
    (void)fy;
    (void)fx;
    if (rows <= 0 || cols <= 0) {
        for (fx = 0; fx < 8; fx++) {
            acc[fx] = 0.0f;
        }
        return;
    }
    __asm__ volatile("vldm %[z], {s0-s7}\n"
                     "1:\n\t"
                     "mov lr, %[fw]\n"
                     "2:\n\t"
                     "vldm %[w], {s8-s11}\n\t"
                     "vldm %[a0], {s12-s15}\n\t"
                     "vldm %[a1], {s16-s19}\n\t"
                     "add %[w], %[w], %[chb]\n\t"
                     "add %[a0], %[a0], %[dilb]\n\t"
                     "add %[a1], %[a1], %[dilb]\n\t"
                     "vfma.f32 s0, s12, s8\n\t"
                     "vfma.f32 s1, s13, s9\n\t"
                     "vfma.f32 s2, s14, s10\n\t"
                     "vfma.f32 s3, s15, s11\n\t"
                     "vfma.f32 s4, s16, s8\n\t"
                     "vfma.f32 s5, s17, s9\n\t"
                     "vfma.f32 s6, s18, s10\n\t"
                     "vfma.f32 s7, s19, s11\n\t"
                     "subs lr, lr, #1\n\t"
                     "bne 2b\n\t"
                     "add %[a0], %[a0], %[rowb]\n\t"
                     "add %[a1], %[a1], %[rowb]\n\t"
                     "add %[w], %[w], %[wrowb]\n\t"
                     "subs %[fh], %[fh], #1\n\t"
                     "bne 1b\n\t"
                     "vstm %[acc], {s0-s7}"
                     : [a0] "+r"(a0), [a1] "+r"(a1), [w] "+r"(w), [fh] "+r"(rows)
                     : [acc] "r"(acc), [z] "r"(aot_dw_f32_zeros), [fw] "r"(cols), [chb] "r"(ch_b), [dilb] "r"(dil_b),
                       [rowb] "r"(row_b), [wrowb] "r"(wrow_b)
                     : "lr", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13",
                       "s14", "s15", "s16", "s17", "s18", "s19", "memory", "cc");
#else
    int32_t j;
    for (j = 0; j < 8; j++) {
        acc[j] = 0.0f;
    }
    for (fy = 0; fy < rows; fy++, a0 += row, w += wrow) {
        const float* a = a0;
        const float* wt = w;
        for (fx = 0; fx < cols; fx++, a += dil, wt += ch) {
            for (j = 0; j < 4; j++) {
                acc[j] = fmaf(a[j], wt[j], acc[j]);
                acc[4 + j] = fmaf(a[step + j], wt[j], acc[4 + j]);
            }
        }
    }
#endif
}

/* Channels c..c+n-1 of one or two outputs: the bias, the activation range. */
static void aot_dw_f32_store(const float* acc, const float* bias, int32_t n, int32_t pixels, float* out0, float* out1,
                             float act_min, float act_max)
{
    int32_t r, j;
    for (r = 0; r < pixels; r++) {
        float* o = r == 0 ? out0 : out1;
        for (j = 0; j < n; j++) {
            float v = acc[4 * r + j];
            if (bias != NULL) {
                v += bias[j];
            }
            o[j] = aot_f32_clamp(v, act_min, act_max);
        }
    }
}

#endif

/* The column slide (3-row filters, stride 1 and dilation 1 down the column): one column of outputs, a group of
 * channels (4 on Helium, 2 elsewhere), its taps' weights held for the whole column, three outputs live at a time
 * (the one that takes its last filter row, the middle one, the one that starts): each input row's group of channels
 * is loaded once per tap column and serves all three.  Each output still takes its taps in the (fy, fx) order, one
 * fused multiply-add each, from its bias (AOT_DW_START). */
#if defined(AOT_DW_F32_MVE)
#define AOT_DW_LANES 4
typedef float32x4_t aot_dw_v;
#define AOT_DW_LD(p)        vld1q_f32(p)
#define AOT_DW_FMA(a, x, w) vfmaq_f32((a), (x), (w))
#define AOT_DW_ZERO()       vdupq_n_f32(0.0f)
#else
#define AOT_DW_LANES        2
typedef struct {
    float l0, l1;
} aot_dw_v;
static inline aot_dw_v aot_dw_ld(const float* p)
{
    aot_dw_v r;
    r.l0 = p[0];
    r.l1 = p[1];
    return r;
}
static inline aot_dw_v aot_dw_fma(aot_dw_v a, aot_dw_v x, aot_dw_v w)
{
    a.l0 = fmaf(x.l0, w.l0, a.l0);
    a.l1 = fmaf(x.l1, w.l1, a.l1);
    return a;
}
static inline aot_dw_v aot_dw_zero(void)
{
    aot_dw_v r;
    r.l0 = 0.0f;
    r.l1 = 0.0f;
    return r;
}
#define AOT_DW_LD(p)        aot_dw_ld(p)
#define AOT_DW_FMA(a, x, w) aot_dw_fma((a), (x), (w))
#define AOT_DW_ZERO()       aot_dw_zero()
#endif

/* What a slide's output needs: its group's bias (the sums' start, +0.0f without one), the range. */
typedef struct {
    aot_dw_v bias;
    float lo, hi;
    uint32_t relu_mask;   /* ReLU (lo 0, hi FLT_MAX): all ones; FPv4: the bits a negative sum clears */
    int32_t clamp;        /* FPv4: another range, the C clamp */
    int32_t top, bottom;  /* the slide's first output has no row above the image, its last none below */
    int32_t wdc4, wrow4;  /* FPU slide: bytes between the filter's tap columns, rows */
    float lo4[4], hi4[4]; /* Helium's column pairs: the range as vectors (loaded into the input's and weight's
                           * registers, free at a row's outputs) */
#if !defined(AOT_DW_F32_MVE)
    /* The FPU slides' loop over the groups of 2 channels (in the asm, its registers all taken): the first group's
     * input and output, weights and bias (+8 bytes a group; the bias gbs bytes), the outputs of the column, the
     * groups left. */
    const float* gp;
    float* go;
    const float* gw;
    const float* gb;
    int32_t gbs, gn, groups;
    int32_t rot;   /* (gn - 2) % 3: 0, or the loop's row the slide enters at (1: (gn - 2) % 3 == 2, 2: == 1) */
    uint32_t head; /* the asm's own: the address (Thumb bit set) of the group's first rows for rot and top */
#endif
} aot_dw_out_t;

static inline void aot_dw_out(aot_dw_v s, const aot_dw_out_t* q, float* o)
{
#if defined(AOT_DW_F32_MVE)
    vst1q_f32(o, vminnmq_f32(vmaxnmq_f32(s, vdupq_n_f32(q->lo)), vdupq_n_f32(q->hi)));
#elif defined(AOT_F32_OUT_FPV5)
    /* The sums started from the bias (AOT_DW_START).  fmaxf/fminf are VMAXNM/VMINNM here: the clamp of f32_out.h. */
    o[0] = fminf(fmaxf(s.l0, q->lo), q->hi);
    o[1] = fminf(fmaxf(s.l1, q->lo), q->hi);
#elif defined(AOT_F32_OUT_FPV4)
    const float v0 = s.l0, v1 = s.l1;
    if (q->clamp) {
        o[0] = aot_f32_clamp(v0, q->lo, q->hi);
        o[1] = aot_f32_clamp(v1, q->lo, q->hi);
    } else {
        /* As f32_out.h's FPv4 form: ReLU clears a negative sum (+0.0f), "none" stores it. */
        uint32_t u0, u1;
        memcpy(&u0, &v0, 4);
        memcpy(&u1, &v1, 4);
        u0 &= ~(q->relu_mask & (uint32_t)((int32_t)u0 >> 31));
        u1 &= ~(q->relu_mask & (uint32_t)((int32_t)u1 >> 31));
        memcpy(o, &u0, 4);
        memcpy(o + 1, &u1, 4);
    }
#else
    o[0] = aot_f32_clamp(s.l0, q->lo, q->hi);
    o[1] = aot_f32_clamp(s.l1, q->lo, q->hi);
#endif
}

/* A sum's start: the bias (+0.0f without one), in every form of the slide (saving a row's VADD). */
#define AOT_DW_START() (q->bias)

/* The slide in C (the host and -O0 builds): weight fx = k of filter row fy, held in registers as
 * the compiler sees fit.  One input row (p: its first tap column; NC tap columns `dc` floats apart): F takes its
 * last filter row (w[2]) and is stored at o, M its middle one, S starts with its first. */
#define AOT_DW_W(fy, k) w[fy][k]
#define AOT_DW_TAP3(F, M, S, k)                                                                                        \
    do {                                                                                                               \
        const aot_dw_v x_ = AOT_DW_LD(p + (k)*dc);                                                                     \
        F = AOT_DW_FMA(F, x_, AOT_DW_W(2, k));                                                                         \
        M = AOT_DW_FMA(M, x_, AOT_DW_W(1, k));                                                                         \
        S = AOT_DW_FMA(S, x_, AOT_DW_W(0, k));                                                                         \
    } while (0)
#define AOT_DW_ROW3(F, M, S)                                                                                           \
    do {                                                                                                               \
        S = AOT_DW_START();                                                                                            \
        AOT_DW_TAP3(F, M, S, 0);                                                                                       \
        AOT_DW_TAP3(F, M, S, 1);                                                                                       \
        if (NC == 3) {                                                                                                 \
            AOT_DW_TAP3(F, M, S, 2);                                                                                   \
        }                                                                                                              \
        aot_dw_out(F, q, o);                                                                                           \
        p += row;                                                                                                      \
        o += orow;                                                                                                     \
    } while (0)
#if defined(AOT_DW_F32_MVE_ASM)
/* The slide in Helium assembly, whole: GCC keeps the nine weight vectors in spill slots (each reload an address
 * computation more) and moves the sums between registers.  Here the sums are q0-q2 (their roles rotating), the
 * input q3, the weight q4, the range q5-q6, the bias q7 (each sum's start, a VMOV); each weight a load at an
 * immediate offset of the column's copy (wq, [fy][fx][4]): 29 instructions per 36 MACs in the loop (NC 3).  dwrow's
 * `roles`: 1 f takes its last filter row, 2 f is stored, 4 m takes its middle row, 8 s starts with its first; %c[nc]
 * gives the third tap column.  The macros' names end in a number of their own (%=): the asm is inlined more than once.
 */
static inline __attribute__((always_inline)) void aot_dw_mve_slide(const float* p, int32_t dc, int32_t row,
                                                                   const float* wq, int32_t NC, const aot_dw_out_t* q,
                                                                   float* o, int32_t orow, int32_t n)
{
    const float* t;
    __asm__ volatile(".macro dwtap%= f, m, s, roles, cb\n"
                     ".if (\\roles) & 1\n\t"
                     "vldrw.32 q4, [%[wq], #(\\cb + 96)]\n\t"
                     "vfma.f32 \\f, q3, q4\n"
                     ".endif\n"
                     ".if (\\roles) & 4\n\t"
                     "vldrw.32 q4, [%[wq], #(\\cb + 48)]\n\t"
                     "vfma.f32 \\m, q3, q4\n"
                     ".endif\n"
                     ".if (\\roles) & 8\n\t"
                     "vldrw.32 q4, [%[wq], #\\cb]\n\t"
                     "vfma.f32 \\s, q3, q4\n"
                     ".endif\n"
                     ".endm\n"
                     ".macro dwrow%= f, m, s, roles\n"
                     ".if (\\roles) & 8\n\t"
                     "vmov \\s, q7\n"
                     ".endif\n"
                     ".if (\\roles) & 13\n\t"
                     "vldrw.32 q3, [%[p]]\n\t"
                     "dwtap%= \\f, \\m, \\s, \\roles, 0\n\t"
                     "add %[t], %[p], %[dc]\n\t"
                     "vldrw.32 q3, [%[t]]\n\t"
                     "dwtap%= \\f, \\m, \\s, \\roles, 16\n"
                     ".if %c[nc] == 3\n\t"
                     "add %[t], %[t], %[dc]\n\t"
                     "vldrw.32 q3, [%[t]]\n\t"
                     "dwtap%= \\f, \\m, \\s, \\roles, 32\n"
                     ".endif\n"
                     ".endif\n"
                     ".if (\\roles) & 2\n\t"
                     "vmaxnm.f32 \\f, \\f, q5\n\t"
                     "vminnm.f32 \\f, \\f, q6\n\t"
                     "vstrw.32 \\f, [%[o]]\n\t"
                     "add %[o], %[o], %[orow]\n"
                     ".endif\n\t"
                     "add %[p], %[p], %[row]\n"
                     ".endm\n\t"
                     "ldr %[t], [%[q], %[lo_off]]\n\t"
                     "vdup.32 q5, %[t]\n\t"
                     "ldr %[t], [%[q], %[hi_off]]\n\t"
                     "vdup.32 q6, %[t]\n\t"
                     "vldrw.32 q7, [%[q]]\n\t"
                     "vmov q0, q7\n\t"
                     "ldr %[t], [%[q], %[top_off]]\n\t"
                     "cmp %[t], #0\n\t"
                     "bne 1f\n\t"
                     "dwrow%= q1, q2, q0, 8\n"
                     "1:\n\t"
                     "dwrow%= q2, q0, q1, 12\n\t"
                     /* n - 2 rows with all three roles: three at a time, then one at a time. */
                     "subs %[n], %[n], #5\n\t"
                     "blt 3f\n"
                     "2:\n\t"
                     "dwrow%= q0, q1, q2, 15\n\t"
                     "dwrow%= q1, q2, q0, 15\n\t"
                     "dwrow%= q2, q0, q1, 15\n\t"
                     "subs %[n], %[n], #3\n\t"
                     "bge 2b\n"
                     "3:\n\t"
                     "adds %[n], %[n], #3\n\t"
                     "beq 5f\n"
                     "4:\n\t"
                     "dwrow%= q0, q1, q2, 15\n\t"
                     "vmov q0, q1\n\t"
                     "vmov q1, q2\n\t"
                     "subs %[n], %[n], #1\n\t"
                     "bne 4b\n"
                     "5:\n\t"
                     "dwrow%= q0, q1, q2, 7\n\t"
                     "ldr %[t], [%[q], %[bottom_off]]\n\t"
                     "cmp %[t], #0\n\t"
                     "bne 6f\n\t"
                     "dwrow%= q1, q0, q2, 3\n\t"
                     "b 7f\n"
                     "6:\n\t"
                     "dwrow%= q1, q0, q2, 2\n"
                     "7:\n\t"
                     ".purgem dwrow%=\n\t"
                     ".purgem dwtap%="
                     : [t] "=&r"(t), [p] "+r"(p), [o] "+r"(o), [n] "+r"(n)
                     : [dc] "r"(dc * 4), [row] "r"(row * 4), [orow] "r"(orow * 4), [wq] "r"(wq), [q] "r"(q),
                       [nc] "i"(NC), [lo_off] "i"(offsetof(aot_dw_out_t, lo)), [hi_off] "i"(offsetof(aot_dw_out_t, hi)),
                       [top_off] "i"(offsetof(aot_dw_out_t, top)), [bottom_off] "i"(offsetof(aot_dw_out_t, bottom))
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                       "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28",
                       "s29", "s30", "s31", "memory", "cc");
}
/* Two adjacent output columns (A, B = A + 1; stride and dilation 1 along x) slid down together on Helium: six sums
 * (q0-q2 A's, q3-q5 B's, roles rotating as in aot_dw_mve_slide), the input q6, the weight q7.  A row's four input
 * columns j feed A's tap j and B's tap j - 1, so each weight serves both columns; at each input column B's taps
 * come first, by filter row up, then A's, down, and the first of B's takes the weight A's last left in q7: 19 loads
 * for 18 VFMA in a row inside the image (two columns alone: 24).  With the sums in all six registers the range is
 * loaded into q6 and q7 at the row's outputs; the starting sums load the bias (VLDRW, its copy a VMOV).  la: A's first
 * tap inside the image (1 at the left edge), hb: B's taps inside it (2 at the right edge); p is the row's input column
 * la.  Each sum is the one column's slide's, in the same order, bit for bit.  52 instructions per 72 MACs in the loop
 * (single columns: 58). */
static inline __attribute__((always_inline)) void aot_dw_mve_pair(const float* p, int32_t dc, int32_t row,
                                                                  const float* wq, int32_t la, int32_t hb,
                                                                  const aot_dw_out_t* q, float* o, int32_t orow,
                                                                  int32_t n)
{
    const float* t;
    __asm__ volatile(/* One multiply-add of sum `acc`: input column j, weight w (fy * 3 + fx); loads only what q6 and
                      * q7 do not hold already (cx, cw: what they hold). */
                     ".macro pe%= acc, j, w\n"
                     ".if cx%= != \\j\n"
                     ".if \\j == %c[la]\n\t"
                     "vldrw.32 q6, [%[p]]\n"
                     ".elseif \\j == %c[la] + 1\n\t"
                     "add %[t], %[p], %[dc]\n\t"
                     "vldrw.32 q6, [%[t]]\n"
                     ".else\n\t"
                     "add %[t], %[t], %[dc]\n\t"
                     "vldrw.32 q6, [%[t]]\n"
                     ".endif\n"
                     ".set cx%=, \\j\n"
                     ".endif\n"
                     ".if cw%= != \\w\n\t"
                     "vldrw.32 q7, [%[wq], #(\\w * 16)]\n"
                     ".set cw%=, \\w\n"
                     ".endif\n\t"
                     "vfma.f32 \\acc, q6, q7\n"
                     ".endm\n"
                     /* Input column j: B's taps (fx = j - 1), filter rows up, then A's (fx = j), down. */
                     ".macro pj%= j, f0, m0, s0, f1, m1, s1, roles\n"
                     ".if (\\j >= 1) && (\\j <= %c[hb])\n"
                     ".if (\\roles) & 8\n\t"
                     "pe%= \\s1, \\j, (\\j - 1)\n"
                     ".endif\n"
                     ".if (\\roles) & 4\n\t"
                     "pe%= \\m1, \\j, (3 + \\j - 1)\n"
                     ".endif\n"
                     ".if (\\roles) & 1\n\t"
                     "pe%= \\f1, \\j, (6 + \\j - 1)\n"
                     ".endif\n"
                     ".endif\n"
                     ".if (\\j >= %c[la]) && (\\j <= 2)\n"
                     ".if (\\roles) & 1\n\t"
                     "pe%= \\f0, \\j, (6 + \\j)\n"
                     ".endif\n"
                     ".if (\\roles) & 4\n\t"
                     "pe%= \\m0, \\j, (3 + \\j)\n"
                     ".endif\n"
                     ".if (\\roles) & 8\n\t"
                     "pe%= \\s0, \\j, \\j\n"
                     ".endif\n"
                     ".endif\n"
                     ".endm\n"
                     /* One input row; roles as aot_dw_mve_slide's dwrow. */
                     ".macro pr%= f0, m0, s0, f1, m1, s1, roles\n"
                     ".set cx%=, -1\n"
                     ".set cw%=, -1\n"
                     ".if (\\roles) & 8\n\t"
                     "vldrw.32 \\s0, [%[q]]\n\t"
                     "vmov \\s1, \\s0\n"
                     ".endif\n"
                     ".if (\\roles) & 13\n\t"
                     "pj%= 0, \\f0, \\m0, \\s0, \\f1, \\m1, \\s1, \\roles\n\t"
                     "pj%= 1, \\f0, \\m0, \\s0, \\f1, \\m1, \\s1, \\roles\n\t"
                     "pj%= 2, \\f0, \\m0, \\s0, \\f1, \\m1, \\s1, \\roles\n\t"
                     "pj%= 3, \\f0, \\m0, \\s0, \\f1, \\m1, \\s1, \\roles\n"
                     ".endif\n"
                     ".if (\\roles) & 2\n\t"
                     "vldrw.32 q6, [%[q], %[lo_off]]\n\t"
                     "vldrw.32 q7, [%[q], %[hi_off]]\n\t"
                     "vmaxnm.f32 \\f0, \\f0, q6\n\t"
                     "vmaxnm.f32 \\f1, \\f1, q6\n\t"
                     "vminnm.f32 \\f0, \\f0, q7\n\t"
                     "vminnm.f32 \\f1, \\f1, q7\n\t"
                     "vstrw.32 \\f0, [%[o]]\n\t"
                     "add %[t], %[o], %[dc]\n\t"
                     "vstrw.32 \\f1, [%[t]]\n\t"
                     "add %[o], %[o], %[orow]\n"
                     ".endif\n\t"
                     "add %[p], %[p], %[row]\n"
                     ".endm\n\t"
                     "vldrw.32 q0, [%[q]]\n\t"
                     "vmov q3, q0\n\t"
                     "ldr %[t], [%[q], %[top_off]]\n\t"
                     "cmp %[t], #0\n\t"
                     "bne 1f\n\t"
                     "pr%= q1, q2, q0, q4, q5, q3, 8\n"
                     "1:\n\t"
                     "pr%= q2, q0, q1, q5, q3, q4, 12\n\t"
                     "subs %[n], %[n], #5\n\t"
                     "blt 3f\n"
                     "2:\n\t"
                     "pr%= q0, q1, q2, q3, q4, q5, 15\n\t"
                     "pr%= q1, q2, q0, q4, q5, q3, 15\n\t"
                     "pr%= q2, q0, q1, q5, q3, q4, 15\n\t"
                     "subs %[n], %[n], #3\n\t"
                     "bge 2b\n"
                     "3:\n\t"
                     "adds %[n], %[n], #3\n\t"
                     "beq 5f\n"
                     "4:\n\t"
                     "pr%= q0, q1, q2, q3, q4, q5, 15\n\t"
                     "vmov q0, q1\n\t"
                     "vmov q1, q2\n\t"
                     "vmov q3, q4\n\t"
                     "vmov q4, q5\n\t"
                     "subs %[n], %[n], #1\n\t"
                     "bne 4b\n"
                     "5:\n\t"
                     "pr%= q0, q1, q2, q3, q4, q5, 7\n\t"
                     "ldr %[t], [%[q], %[bottom_off]]\n\t"
                     "cmp %[t], #0\n\t"
                     "bne 6f\n\t"
                     "pr%= q1, q0, q2, q4, q3, q5, 3\n\t"
                     "b 7f\n"
                     "6:\n\t"
                     "pr%= q1, q0, q2, q4, q3, q5, 2\n"
                     "7:\n\t"
                     ".purgem pr%=\n\t"
                     ".purgem pj%=\n\t"
                     ".purgem pe%="
                     : [t] "=&r"(t), [p] "+r"(p), [o] "+r"(o), [n] "+r"(n)
                     : [dc] "r"(dc * 4), [row] "r"(row * 4), [orow] "r"(orow * 4), [wq] "r"(wq), [q] "r"(q),
                       [la] "i"(la), [hb] "i"(hb), [lo_off] "i"(offsetof(aot_dw_out_t, lo4)),
                       [hi_off] "i"(offsetof(aot_dw_out_t, hi4)), [top_off] "i"(offsetof(aot_dw_out_t, top)),
                       [bottom_off] "i"(offsetof(aot_dw_out_t, bottom))
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                       "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28",
                       "s29", "s30", "s31", "memory", "cc");
}
#if !defined(AOT_DW_F32_PART)
/* Out of line, as aot_dw_mve_slide3: inside the image only.  The edge forms (la 1, hb 2; 1.3 KB each) went with the
 * lanes' ReLU6: the SAME layers that reached them take the lanes now, but for those of 2-4 columns (one or two
 * output columns each side), whose edge columns take the single column's slide. */
static __attribute__((noinline)) void aot_dw_mve_pair_in(const float* p, int32_t dc, int32_t row, const float* wq,
                                                         const aot_dw_out_t* q, float* o, int32_t orow, int32_t n)
{
    aot_dw_mve_pair(p, dc, row, wq, 0, 3, q, o, orow, n);
}
/* Out of line: GCC counts the asm's lines, not its macros' expansion, and could place a literal pool out of reach of
 * a load before it. */
static __attribute__((noinline)) void aot_dw_mve_slide3(const float* p, int32_t dc, int32_t row, const float* wq,
                                                        const aot_dw_out_t* q, float* o, int32_t orow, int32_t n)
{
    aot_dw_mve_slide(p, dc, row, wq, 3, q, o, orow, n);
}
static __attribute__((noinline)) void aot_dw_mve_slide2(const float* p, int32_t dc, int32_t row, const float* wq,
                                                        const aot_dw_out_t* q, float* o, int32_t orow, int32_t n)
{
    aot_dw_mve_slide(p, dc, row, wq, 2, q, o, orow, n);
}
#endif /* !AOT_DW_F32_PART */
#endif

/* The taps of one filter row of the slide at input row p: a (and b) take the row of weights wa (wb). */
#define AOT_DW_TAPS1(a, wa)                                                                                            \
    do {                                                                                                               \
        a = AOT_DW_FMA(a, AOT_DW_LD(p), AOT_DW_W(wa, 0));                                                              \
        a = AOT_DW_FMA(a, AOT_DW_LD(p + dc), AOT_DW_W(wa, 1));                                                         \
        if (NC == 3) {                                                                                                 \
            a = AOT_DW_FMA(a, AOT_DW_LD(p + 2 * dc), AOT_DW_W(wa, 2));                                                 \
        }                                                                                                              \
    } while (0)
#define AOT_DW_TAP2(a, wa, b, wb, k)                                                                                   \
    do {                                                                                                               \
        const aot_dw_v x_ = AOT_DW_LD(p + (k)*dc);                                                                     \
        a = AOT_DW_FMA(a, x_, AOT_DW_W(wa, k));                                                                        \
        b = AOT_DW_FMA(b, x_, AOT_DW_W(wb, k));                                                                        \
    } while (0)
#define AOT_DW_TAPS2(a, wa, b, wb)                                                                                     \
    do {                                                                                                               \
        AOT_DW_TAP2(a, wa, b, wb, 0);                                                                                  \
        AOT_DW_TAP2(a, wa, b, wb, 1);                                                                                  \
        if (NC == 3) {                                                                                                 \
            AOT_DW_TAP2(a, wa, b, wb, 2);                                                                              \
        }                                                                                                              \
    } while (0)

#if !defined(AOT_DW_F32_MVE) && (defined(AOT_F32_OUT_FPV5) || defined(AOT_F32_OUT_FPV4)) && defined(__ARM_FEATURE_FMA)
#define AOT_DW_F32_FPU_ASM 1
/* The head of a column call on the FPU (aot_dw_fpu_slide, aot_dw_fpu_pair): the first row's form chosen once from
 * the rotation and the top edge, stored as a Thumb address in the outputs' struct (.p2align 2: the ADR.W targets
 * must be word-aligned at -Os and -O1 too), then each group's weight, step and row pointers loaded (label 9: the
 * groups' loop). */
#define AOT_DW_FPU_HEAD_ASM                                                                                            \
    "ldr %[t], [%[q], %[rot_off]]\n\t"                                                                                 \
    "cmp %[t], #1\n\t"                                                                                                 \
    "beq 51f\n\t"                                                                                                      \
    "bgt 52f\n\t"                                                                                                      \
    ".p2align 2\n\t"                                                                                                   \
    "adr.w %[t], 40f\n\t"                                                                                              \
    "adr.w %[u], 42f\n\t"                                                                                              \
    "b 59f\n"                                                                                                          \
    "51:\n\t"                                                                                                          \
    ".p2align 2\n\t"                                                                                                   \
    "adr.w %[t], 43f\n\t"                                                                                              \
    "adr.w %[u], 45f\n\t"                                                                                              \
    "b 59f\n"                                                                                                          \
    "52:\n\t"                                                                                                          \
    ".p2align 2\n\t"                                                                                                   \
    "adr.w %[t], 46f\n\t"                                                                                              \
    "adr.w %[u], 48f\n"                                                                                                \
    "59:\n\t"                                                                                                          \
    "ldr %[v], [%[q], %[top_off]]\n\t"                                                                                 \
    "cmp %[v], #0\n\t"                                                                                                 \
    "it ne\n\t"                                                                                                        \
    "movne %[t], %[u]\n\t"                                                                                             \
    "orr %[t], %[t], #1\n\t"                                                                                           \
    "str %[t], [%[q], %[head_off]]\n"                                                                                  \
    "9:\n\t"                                                                                                           \
    "ldr %[wl], [%[q], %[gw_off]]\n\t"                                                                                 \
    "ldr %[u], [%[q], %[wdc_off]]\n\t"                                                                                 \
    "ldr %[v], [%[q], %[wrow_off]]\n\t"

/* The output of the FPU slide's row (its sums started from the bias): FPv5 clamps with VMAXNM/VMINNM by s10 and s11 (as
 * f32_out.h), FPv4 clears a negative sum's bits under %[mask] (all ones: ReLU; zero: none, as f32_out.h). */
#if defined(AOT_F32_OUT_FPV5)
/* Roles 16: ReLU (0, FLT_MAX), the loop's own copy: VMAXNM only (a sum that overflowed to +inf stays infinite, as
 * FPv4's BIC of the sign in f32_out.h; the reference stops at FLT_MAX). */
#define AOT_DW_FPU_OUT                                                                                                 \
    ".if (\\roles) & 16\n\t"                                                                                           \
    "vmaxnm.f32 \\f0, \\f0, s10\n\t"                                                                                   \
    "vmaxnm.f32 \\f1, \\f1, s10\n"                                                                                     \
    ".else\n\t"                                                                                                        \
    "vmaxnm.f32 \\f0, \\f0, s10\n\t"                                                                                   \
    "vmaxnm.f32 \\f1, \\f1, s10\n\t"                                                                                   \
    "vminnm.f32 \\f0, \\f0, s11\n\t"                                                                                   \
    "vminnm.f32 \\f1, \\f1, s11\n"                                                                                     \
    ".endif\n\t"                                                                                                       \
    "vstmia %[o], {\\f0, \\f1}\n\t"
#else
/* Roles 16 (ReLU) and 32 (none): the loop's rows, each range its own copy of the loop. */
#define AOT_DW_FPU_OUT                                                                                                 \
    ".if (\\roles) & 16\n\t"                                                                                           \
    "vmov %[t], %[u], \\f0, \\f1\n\t"                                                                                  \
    "bic %[t], %[t], %[t], asr #31\n\t"                                                                                \
    "bic %[u], %[u], %[u], asr #31\n\t"                                                                                \
    "strd %[t], %[u], [%[o]]\n"                                                                                        \
    ".elseif (\\roles) & 32\n\t"                                                                                       \
    "vstmia %[o], {\\f0, \\f1}\n"                                                                                      \
    ".else\n\t"                                                                                                        \
    "vmov %[t], %[u], \\f0, \\f1\n\t"                                                                                  \
    "and %[v], %[mask], %[t], asr #31\n\t"                                                                             \
    "bic %[t], %[t], %[v]\n\t"                                                                                         \
    "and %[v], %[mask], %[u], asr #31\n\t"                                                                             \
    "bic %[u], %[u], %[v]\n\t"                                                                                         \
    "strd %[t], %[u], [%[o]]\n"                                                                                        \
    ".endif\n\t"
#endif
/* The slides' and pairs' step to the next group of two channels: advance the input and weight pointers kept in the
 * job, count the group down, loop back to the group's start (label 9) or leave (label 99). */
#define AOT_DW_FPU_NEXT_GROUP                                                                                          \
    "ldrd %[t], %[u], [%[q], %[gp_off]]\n\t"                                                                           \
    "add %[t], %[t], #8\n\t"                                                                                           \
    "add %[u], %[u], #8\n\t"                                                                                           \
    "strd %[t], %[u], [%[q], %[gp_off]]\n\t"                                                                           \
    "ldrd %[t], %[u], [%[q], %[gw_off]]\n\t"                                                                           \
    "ldr %[v], [%[q], %[gbs_off]]\n\t"                                                                                 \
    "add %[t], %[t], #8\n\t"                                                                                           \
    "add %[u], %[u], %[v]\n\t"                                                                                         \
    "strd %[t], %[u], [%[q], %[gw_off]]\n\t"                                                                           \
    "ldr %[t], [%[q], %[groups_off]]\n\t"                                                                              \
    "subs %[t], %[t], #1\n\t"                                                                                          \
    "str %[t], [%[q], %[groups_off]]\n\t"                                                                              \
    "bne 9b\n\t"                                                                                                       \
    "b 99f\n"

#if defined(AOT_F32_OUT_FPV4)
/* FPv4: the loop once for ReLU (BIC of the sign), once for none (VSTM), two instructions a row less than the mask. */
#define AOT_DW_FPU_LOOP                                                                                                \
    "cmp %[mask], #0\n\t"                                                                                              \
    "beq 8f\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "fdwrow%= s0, s1, s2, s3, s4, s5, 31\n\t"                                                                          \
    "12:\n\t"                                                                                                          \
    "fdwrow%= s2, s3, s4, s5, s0, s1, 31\n\t"                                                                          \
    "13:\n\t"                                                                                                          \
    "fdwrow%= s4, s5, s0, s1, s2, s3, 31\n\t"                                                                          \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 2b\n\t"                                                                                                       \
    "b 5f\n"                                                                                                           \
    "8:\n\t"                                                                                                           \
    "fdwrow%= s0, s1, s2, s3, s4, s5, 47\n\t"                                                                          \
    "18:\n\t"                                                                                                          \
    "fdwrow%= s2, s3, s4, s5, s0, s1, 47\n\t"                                                                          \
    "19:\n\t"                                                                                                          \
    "fdwrow%= s4, s5, s0, s1, s2, s3, 47\n\t"                                                                          \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 8b\n"
#else
/* FPv5: the loop once for ReLU (VMAXNM only), once for the other ranges. */
#define AOT_DW_FPU_LOOP                                                                                                \
    "cmp %[mask], #0\n\t"                                                                                              \
    "beq 8f\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "fdwrow%= s0, s1, s2, s3, s4, s5, 31\n\t"                                                                          \
    "12:\n\t"                                                                                                          \
    "fdwrow%= s2, s3, s4, s5, s0, s1, 31\n\t"                                                                          \
    "13:\n\t"                                                                                                          \
    "fdwrow%= s4, s5, s0, s1, s2, s3, 31\n\t"                                                                          \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 2b\n\t"                                                                                                       \
    "b 5f\n"                                                                                                           \
    "8:\n\t"                                                                                                           \
    "fdwrow%= s0, s1, s2, s3, s4, s5, 15\n\t"                                                                          \
    "18:\n\t"                                                                                                          \
    "fdwrow%= s2, s3, s4, s5, s0, s1, 15\n\t"                                                                          \
    "19:\n\t"                                                                                                          \
    "fdwrow%= s4, s5, s0, s1, s2, s3, 15\n\t"                                                                          \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 8b\n"
#endif
/* The slide on an FPU, whole, in assembly: 2 channels; the sums in s0-s5 (pairs, their roles rotating), the input
 * pair s6-s7, the range s10-s11, the column's 9 weight pairs held in s12-s29 (w[fy][fx] at s12 + 2 * (3 * fy +
 * fx)), loaded from the filter at wl (q->wdc4, q->wrow4 bytes apart); the bias's bits in z and wl (after the
 * weights' loads) start each sum: per row of 18 MACs (NC 3) 3 input loads, 18 VFMA, one VMOV of the bias into the
 * starting sums and the output.  Roles as the Helium slide's.  One call takes all the column's groups of 2
 * channels: a group's input, output, weights and bias pointers and its outputs' count are read from q (gp, go,
 * gw, gb, gn) and advanced there at the group's end (13 instructions; no register is free to hold them), where a
 * call per group cost about 40 more (the C loop, the arguments, the prologue).  The group's first rows start the
 * sums in the registers of the loop row that (n - 2) % 3 leaves over (q->rot) and enter the loop there, so no
 * leftover row moves the sums; which of the six heads (rot x top) a group takes is found once per call and kept in
 * q->head (an address, Thumb bit set), each group a LDR PC.  The ADRs are resolved when assembling, from the
 * offset in the function's section, which is only halfword-aligned at -Os and -O1 unless raised: .p2align 2 makes it
 * (and the ADRs) word-aligned, else a function the linker places at 2 mod 4 gets its addresses 2 bytes off (Align(PC,
 * 4)). */
static inline __attribute__((always_inline)) void aot_dw_fpu_slide(int32_t dc, int32_t row, int32_t NC, aot_dw_out_t* q,
                                                                   int32_t orow)
{
    uint32_t t, u, v, z;
    const float *p, *wl;
    float* o;
    int32_t n;
    __asm__ volatile(
        ".macro fdwtap%= f0, f1, m0, m1, s0, s1, roles, src, a0, a1, b0, b1, c0, c1\n\t"
        "vldmia \\src, {s6, s7}\n"
        ".if (\\roles) & 1\n\t"
        "vfma.f32 \\f0, s6, \\a0\n\t"
        "vfma.f32 \\f1, s7, \\a1\n"
        ".endif\n"
        ".if (\\roles) & 4\n\t"
        "vfma.f32 \\m0, s6, \\b0\n\t"
        "vfma.f32 \\m1, s7, \\b1\n"
        ".endif\n"
        ".if (\\roles) & 8\n\t"
        "vfma.f32 \\s0, s6, \\c0\n\t"
        "vfma.f32 \\s1, s7, \\c1\n"
        ".endif\n"
        ".endm\n"
        ".macro fdwld%= src, a0, a1, b0, b1, c0, c1\n\t"
        "vldmia \\src, {\\a0, \\a1}\n\t"
        "add %[z], \\src, %[u]\n\t"
        "vldmia %[z], {\\b0, \\b1}\n"
        ".if %c[nc] == 3\n\t"
        "add %[z], %[z], %[u]\n\t"
        "vldmia %[z], {\\c0, \\c1}\n"
        ".endif\n"
        ".endm\n"
        ".macro fdwrow%= f0, f1, m0, m1, s0, s1, roles\n"
        ".if (\\roles) & 8\n\t"
        "vmov \\s0, \\s1, %[z], %[wl]\n"
        ".endif\n"
        ".if (\\roles) & 13\n\t"
        "fdwtap%= \\f0, \\f1, \\m0, \\m1, \\s0, \\s1, \\roles, %[p], s24, s25, s18, s19, s12, s13\n\t"
        "add %[t], %[p], %[dc]\n\t"
        "fdwtap%= \\f0, \\f1, \\m0, \\m1, \\s0, \\s1, \\roles, %[t], s26, s27, s20, s21, s14, s15\n"
        ".if %c[nc] == 3\n\t"
        "add %[t], %[t], %[dc]\n\t"
        "fdwtap%= \\f0, \\f1, \\m0, \\m1, \\s0, \\s1, \\roles, %[t], s28, s29, s22, s23, s16, s17\n"
        ".endif\n"
        ".endif\n"
        ".if (\\roles) & 2\n\t" AOT_DW_FPU_OUT "add %[o], %[o], %[orow]\n"
        ".endif\n\t"
        "add %[p], %[p], %[row]\n"
        ".endm\n\t"
        "vldmia %[q], {s8-s11}\n\t" AOT_DW_FPU_HEAD_ASM "fdwld%= %[wl], s12, s13, s14, s15, s16, s17\n\t"
        "add %[t], %[wl], %[v]\n\t"
        "fdwld%= %[t], s18, s19, s20, s21, s22, s23\n\t"
        "add %[t], %[wl], %[v], lsl #1\n\t"
        "fdwld%= %[t], s24, s25, s26, s27, s28, s29\n\t"
        "ldr %[t], [%[q], %[gb_off]]\n\t"
        "ldrd %[z], %[wl], [%[t]]\n\t"
        "ldrd %[p], %[o], [%[q], %[gp_off]]\n\t"
        "ldr %[n], [%[q], %[gn_off]]\n\t"
        "ldr pc, [%[q], %[head_off]]\n"
        "40:\n\t"
        "fdwrow%= s2, s3, s4, s5, s0, s1, 8\n\t"
        "b 41f\n"
        "42:\n\t"
        "vmov s0, s1, %[z], %[wl]\n"
        "41:\n\t"
        "fdwrow%= s4, s5, s0, s1, s2, s3, 12\n\t"
        "subs %[n], %[n], #5\n\t"
        "blt 5f\n\t" AOT_DW_FPU_LOOP "5:\n\t"
        "fdwrow%= s0, s1, s2, s3, s4, s5, 7\n\t"
        "ldr %[t], [%[q], %[bottom_off]]\n\t"
        "cmp %[t], #0\n\t"
        "bne 6f\n\t"
        "fdwrow%= s2, s3, s0, s1, s4, s5, 3\n\t"
        "b 7f\n"
        "6:\n\t"
        "fdwrow%= s2, s3, s0, s1, s4, s5, 2\n"
        "7:\n\t" AOT_DW_FPU_NEXT_GROUP
        /* (n - 2) % 3 == 2 (rot 1), 1 (rot 2): the first sums in the registers of the loop's second
         * (third) row, which the loop enters at; no moves of the sums after it. */
        "43:\n\t"
        "fdwrow%= s4, s5, s0, s1, s2, s3, 8\n\t"
        "b 44f\n"
        "45:\n\t"
        "vmov s2, s3, %[z], %[wl]\n"
        "44:\n\t"
        "fdwrow%= s0, s1, s2, s3, s4, s5, 12\n\t"
        "subs %[n], %[n], #4\n\t"
        "cmp %[mask], #0\n\t"
        "beq 18b\n\t"
        "b 12b\n"
        "46:\n\t"
        "fdwrow%= s0, s1, s2, s3, s4, s5, 8\n\t"
        "b 47f\n"
        "48:\n\t"
        "vmov s4, s5, %[z], %[wl]\n"
        "47:\n\t"
        "fdwrow%= s2, s3, s4, s5, s0, s1, 12\n\t"
        "subs %[n], %[n], #3\n\t"
        "cmp %[mask], #0\n\t"
        "beq 19b\n\t"
        "b 13b\n"
        "99:\n\t"
        ".purgem fdwrow%=\n\t"
        ".purgem fdwtap%=\n\t"
        ".purgem fdwld%="
        :
        [t] "=&r"(t), [u] "=&r"(u), [v] "=&r"(v), [z] "=&r"(z), [p] "=&r"(p), [o] "=&r"(o), [n] "=&r"(n), [wl] "=&r"(wl)
        : [dc] "r"(dc * 4), [row] "r"(row * 4), [orow] "r"(orow * 4), [q] "r"(q), [mask] "r"(q->relu_mask),
          [gp_off] "i"(offsetof(aot_dw_out_t, gp)), [gw_off] "i"(offsetof(aot_dw_out_t, gw)),
          [gb_off] "i"(offsetof(aot_dw_out_t, gb)), [gbs_off] "i"(offsetof(aot_dw_out_t, gbs)),
          [gn_off] "i"(offsetof(aot_dw_out_t, gn)), [groups_off] "i"(offsetof(aot_dw_out_t, groups)), [nc] "i"(NC),
          [top_off] "i"(offsetof(aot_dw_out_t, top)), [rot_off] "i"(offsetof(aot_dw_out_t, rot)),
          [head_off] "i"(offsetof(aot_dw_out_t, head)), [wdc_off] "i"(offsetof(aot_dw_out_t, wdc4)),
          [wrow_off] "i"(offsetof(aot_dw_out_t, wrow4)), [bottom_off] "i"(offsetof(aot_dw_out_t, bottom))
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16",
          "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "memory", "cc");
    (void)u;
    (void)v;
}
/* A single column of 3 tap columns inside the image, in a unit of its own (depthwise_conv2d_f32_vec3.c, defining
 * aot_dw_fpu_slide3 and the entry point aot_depthwise_conv2d_f32_vec3 that links it): the compiler calls that entry
 * for a layer that has such a column (ops/kernels/float_gemm.py); an image without it has this reference weak and
 * runs such a column on aot_dw_f32_rows (the same outputs, more instructions).  Out of line: GCC counts the asm's
 * lines, not its macros' expansion, and would place literal pools out of reach of a load before it. */
void aot_dw_fpu_slide3(int32_t dc, int32_t row, aot_dw_out_t* q, int32_t orow) AOT_DW_F32_WEAK;
#if !defined(AOT_DW_F32_PART)
static __attribute__((noinline)) void aot_dw_fpu_slide2(int32_t dc, int32_t row, aot_dw_out_t* q, int32_t orow)
{
    aot_dw_fpu_slide(dc, row, 2, q, orow);
}
#endif
/* Two adjacent output columns slid down together on an FPU (A, B = A + 1; stride and dilation 1 along x), as
 * Helium's aot_dw_mve_pair: six sums of 2 channels (s0-s5 A's, s6-s11 B's, roles rotating as in aot_dw_fpu_slide),
 * the 9 weight pairs in s12-s29 (as aot_dw_fpu_slide's), the input pair s30-s31.  A row's input columns j feed A's
 * tap j and B's tap j - 1: 4 loads for 36 VFMA in a row inside the image (two columns alone: 6).  Every register
 * holds a sum, a weight or the input, so FPv5 loads the range into s30-s31 (VLDR.64) at the row's outputs.  la: A's
 * first tap inside the image (1 at the left edge), hb: B's taps inside it (3: the forms in use have no right edge);
 * p is the row's input column la.  Each sum is the one column's slide's, in the same order, bit for bit.  In the loop
 * (FPv4, ReLU) 56
 * instructions per 36 MACs, the single column's 30 per 18.  All the column pair's groups in one call, as
 * aot_dw_fpu_slide. */
#if defined(AOT_F32_OUT_FPV5)
#define AOT_DW_FPU_PAIR_OUT                                                                                            \
    "vldr d15, [%[q], %[lo_off]]\n\t"                                                                                  \
    "vmaxnm.f32 \\fa0, \\fa0, s30\n\t"                                                                                 \
    "vmaxnm.f32 \\fa1, \\fa1, s30\n\t"                                                                                 \
    "vmaxnm.f32 \\fb0, \\fb0, s30\n\t"                                                                                 \
    "vmaxnm.f32 \\fb1, \\fb1, s30\n"                                                                                   \
    ".if ((\\roles) & 16) == 0\n\t"                                                                                    \
    "vminnm.f32 \\fa0, \\fa0, s31\n\t"                                                                                 \
    "vminnm.f32 \\fa1, \\fa1, s31\n\t"                                                                                 \
    "vminnm.f32 \\fb0, \\fb0, s31\n\t"                                                                                 \
    "vminnm.f32 \\fb1, \\fb1, s31\n"                                                                                   \
    ".endif\n\t"                                                                                                       \
    "vstmia %[o], {\\fa0, \\fa1}\n\t"                                                                                  \
    "add %[t], %[o], %[dc]\n\t"                                                                                        \
    "vstmia %[t], {\\fb0, \\fb1}\n\t"
#define AOT_DW_FPU_PAIR_LOOP                                                                                           \
    "cmp %[mask], #0\n\t"                                                                                              \
    "beq 8f\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 31\n\t"                                                   \
    "12:\n\t"                                                                                                          \
    "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 31\n\t"                                                   \
    "13:\n\t"                                                                                                          \
    "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 31\n\t"                                                   \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 2b\n\t"                                                                                                       \
    "b 5f\n"                                                                                                           \
    "8:\n\t"                                                                                                           \
    "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 15\n\t"                                                   \
    "18:\n\t"                                                                                                          \
    "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 15\n\t"                                                   \
    "19:\n\t"                                                                                                          \
    "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 15\n\t"                                                   \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 8b\n"
#else
#define AOT_DW_FPU_PAIR_OUT                                                                                            \
    ".if (\\roles) & 16\n\t"                                                                                           \
    "vmov %[t], %[u], \\fa0, \\fa1\n\t"                                                                                \
    "bic %[t], %[t], %[t], asr #31\n\t"                                                                                \
    "bic %[u], %[u], %[u], asr #31\n\t"                                                                                \
    "strd %[t], %[u], [%[o]]\n\t"                                                                                      \
    "vmov %[t], %[u], \\fb0, \\fb1\n\t"                                                                                \
    "bic %[t], %[t], %[t], asr #31\n\t"                                                                                \
    "bic %[u], %[u], %[u], asr #31\n\t"                                                                                \
    "add %[v], %[o], %[dc]\n\t"                                                                                        \
    "strd %[t], %[u], [%[v]]\n"                                                                                        \
    ".elseif (\\roles) & 32\n\t"                                                                                       \
    "vstmia %[o], {\\fa0, \\fa1}\n\t"                                                                                  \
    "add %[t], %[o], %[dc]\n\t"                                                                                        \
    "vstmia %[t], {\\fb0, \\fb1}\n"                                                                                    \
    ".else\n\t"                                                                                                        \
    "vmov %[t], %[u], \\fa0, \\fa1\n\t"                                                                                \
    "and %[v], %[mask], %[t], asr #31\n\t"                                                                             \
    "bic %[t], %[t], %[v]\n\t"                                                                                         \
    "and %[v], %[mask], %[u], asr #31\n\t"                                                                             \
    "bic %[u], %[u], %[v]\n\t"                                                                                         \
    "strd %[t], %[u], [%[o]]\n\t"                                                                                      \
    "vmov %[t], %[u], \\fb0, \\fb1\n\t"                                                                                \
    "and %[v], %[mask], %[t], asr #31\n\t"                                                                             \
    "bic %[t], %[t], %[v]\n\t"                                                                                         \
    "and %[v], %[mask], %[u], asr #31\n\t"                                                                             \
    "bic %[u], %[u], %[v]\n\t"                                                                                         \
    "add %[v], %[o], %[dc]\n\t"                                                                                        \
    "strd %[t], %[u], [%[v]]\n"                                                                                        \
    ".endif\n\t"
#define AOT_DW_FPU_PAIR_LOOP                                                                                           \
    "cmp %[mask], #0\n\t"                                                                                              \
    "beq 8f\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 31\n\t"                                                   \
    "12:\n\t"                                                                                                          \
    "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 31\n\t"                                                   \
    "13:\n\t"                                                                                                          \
    "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 31\n\t"                                                   \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 2b\n\t"                                                                                                       \
    "b 5f\n"                                                                                                           \
    "8:\n\t"                                                                                                           \
    "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 47\n\t"                                                   \
    "18:\n\t"                                                                                                          \
    "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 47\n\t"                                                   \
    "19:\n\t"                                                                                                          \
    "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 47\n\t"                                                   \
    "subs %[n], %[n], #3\n\t"                                                                                          \
    "bge 8b\n"
#endif
static inline __attribute__((always_inline)) void aot_dw_fpu_pair(int32_t dc, int32_t row, int32_t la, int32_t hb,
                                                                  aot_dw_out_t* q, int32_t orow)
{
    uint32_t t, u, v, z;
    const float *p, *wl;
    float* o;
    int32_t n;
    __asm__ volatile(/* Two multiply-adds: sum pair a, b += the input pair times the weight pair wa, wb. */
                     ".macro fpv%= a, b, wa, wb\n\t"
                     "vfma.f32 \\a, s30, \\wa\n\t"
                     "vfma.f32 \\b, s31, \\wb\n"
                     ".endm\n"
                     /* Input column j: B's taps (fx = j - 1: weights b0-b5 by filter row), then A's (fx = j: a0-a5);
                      * each sum's taps of a row in the order of fx. */
                     ".macro fpj%= j, fa0, fa1, ma0, ma1, sa0, sa1, fb0, fb1, mb0, mb1, sb0, sb1, roles, b0, b1, b2, "
                     "b3, b4, b5, a0, a1, a2, a3, a4, a5\n"
                     ".if (\\j >= %c[la]) && (\\j <= %c[hb])\n"
                     ".if \\j == %c[la]\n\t"
                     "vldmia %[p], {s30, s31}\n"
                     ".elseif \\j == %c[la] + 1\n\t"
                     "add %[t], %[p], %[dc]\n\t"
                     "vldmia %[t], {s30, s31}\n"
                     ".else\n\t"
                     "add %[t], %[t], %[dc]\n\t"
                     "vldmia %[t], {s30, s31}\n"
                     ".endif\n"
                     ".endif\n"
                     ".if (\\j >= 1) && (\\j <= %c[hb])\n"
                     ".if (\\roles) & 8\n\t"
                     "fpv%= \\sb0, \\sb1, \\b0, \\b1\n"
                     ".endif\n"
                     ".if (\\roles) & 4\n\t"
                     "fpv%= \\mb0, \\mb1, \\b2, \\b3\n"
                     ".endif\n"
                     ".if (\\roles) & 1\n\t"
                     "fpv%= \\fb0, \\fb1, \\b4, \\b5\n"
                     ".endif\n"
                     ".endif\n"
                     ".if (\\j >= %c[la]) && (\\j <= 2)\n"
                     ".if (\\roles) & 8\n\t"
                     "fpv%= \\sa0, \\sa1, \\a0, \\a1\n"
                     ".endif\n"
                     ".if (\\roles) & 4\n\t"
                     "fpv%= \\ma0, \\ma1, \\a2, \\a3\n"
                     ".endif\n"
                     ".if (\\roles) & 1\n\t"
                     "fpv%= \\fa0, \\fa1, \\a4, \\a5\n"
                     ".endif\n"
                     ".endif\n"
                     ".endm\n"
                     /* One input row; roles as aot_dw_fpu_slide's fdwrow. */
                     ".macro fpr%= fa0, fa1, ma0, ma1, sa0, sa1, fb0, fb1, mb0, mb1, sb0, sb1, roles\n"
                     ".if (\\roles) & 8\n\t"
                     "vmov \\sa0, \\sa1, %[z], %[wl]\n\t"
                     "vmov \\sb0, \\sb1, %[z], %[wl]\n"
                     ".endif\n"
                     ".if (\\roles) & 13\n\t"
                     "fpj%= 0, \\fa0, \\fa1, \\ma0, \\ma1, \\sa0, \\sa1, \\fb0, \\fb1, \\mb0, \\mb1, \\sb0, \\sb1, "
                     "\\roles, s12, s13, s18, s19, s24, s25, s12, s13, s18, s19, s24, s25\n\t"
                     "fpj%= 1, \\fa0, \\fa1, \\ma0, \\ma1, \\sa0, \\sa1, \\fb0, \\fb1, \\mb0, \\mb1, \\sb0, \\sb1, "
                     "\\roles, s12, s13, s18, s19, s24, s25, s14, s15, s20, s21, s26, s27\n\t"
                     "fpj%= 2, \\fa0, \\fa1, \\ma0, \\ma1, \\sa0, \\sa1, \\fb0, \\fb1, \\mb0, \\mb1, \\sb0, \\sb1, "
                     "\\roles, s14, s15, s20, s21, s26, s27, s16, s17, s22, s23, s28, s29\n\t"
                     "fpj%= 3, \\fa0, \\fa1, \\ma0, \\ma1, \\sa0, \\sa1, \\fb0, \\fb1, \\mb0, \\mb1, \\sb0, \\sb1, "
                     "\\roles, s16, s17, s22, s23, s28, s29, s16, s17, s22, s23, s28, s29\n"
                     ".endif\n"
                     ".if (\\roles) & 2\n\t" AOT_DW_FPU_PAIR_OUT "add %[o], %[o], %[orow]\n"
                     ".endif\n\t"
                     "add %[p], %[p], %[row]\n"
                     ".endm\n"
                     /* The 9 weight pairs of filter row fy at src: taps fx 0-2. */
                     ".macro fpw%= src, a0, a1, b0, b1, c0, c1\n\t"
                     "vldmia \\src, {\\a0, \\a1}\n\t"
                     "add %[z], \\src, %[u]\n\t"
                     "vldmia %[z], {\\b0, \\b1}\n\t"
                     "add %[z], %[z], %[u]\n\t"
                     "vldmia %[z], {\\c0, \\c1}\n"
                     ".endm\n\t" AOT_DW_FPU_HEAD_ASM "fpw%= %[wl], s12, s13, s14, s15, s16, s17\n\t"
                     "add %[t], %[wl], %[v]\n\t"
                     "fpw%= %[t], s18, s19, s20, s21, s22, s23\n\t"
                     "add %[t], %[wl], %[v], lsl #1\n\t"
                     "fpw%= %[t], s24, s25, s26, s27, s28, s29\n\t"
                     "ldr %[t], [%[q], %[gb_off]]\n\t"
                     "ldrd %[z], %[wl], [%[t]]\n\t"
                     "ldrd %[p], %[o], [%[q], %[gp_off]]\n\t"
                     "ldr %[n], [%[q], %[gn_off]]\n\t"
                     "ldr pc, [%[q], %[head_off]]\n"
                     "40:\n\t"
                     "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 8\n\t"
                     "b 41f\n"
                     "42:\n\t"
                     "vmov s0, s1, %[z], %[wl]\n"
                     "vmov s6, s7, %[z], %[wl]\n"
                     "41:\n\t"
                     "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 12\n\t"
                     "subs %[n], %[n], #5\n\t"
                     "blt 5f\n\t" AOT_DW_FPU_PAIR_LOOP "5:\n\t"
                     "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 7\n\t"
                     "ldr %[t], [%[q], %[bottom_off]]\n\t"
                     "cmp %[t], #0\n\t"
                     "bne 6f\n\t"
                     "fpr%= s2, s3, s0, s1, s4, s5, s8, s9, s6, s7, s10, s11, 3\n\t"
                     "b 7f\n"
                     "6:\n\t"
                     "fpr%= s2, s3, s0, s1, s4, s5, s8, s9, s6, s7, s10, s11, 2\n"
                     "7:\n\t" AOT_DW_FPU_NEXT_GROUP
                     /* The first sums in the registers of the loop's second (rot 1) or third (rot 2) row, as
                      * aot_dw_fpu_slide's. */
                     "43:\n\t"
                     "fpr%= s4, s5, s0, s1, s2, s3, s10, s11, s6, s7, s8, s9, 8\n\t"
                     "b 44f\n"
                     "45:\n\t"
                     "vmov s2, s3, %[z], %[wl]\n"
                     "vmov s8, s9, %[z], %[wl]\n"
                     "44:\n\t"
                     "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 12\n\t"
                     "subs %[n], %[n], #4\n\t"
                     "cmp %[mask], #0\n\t"
                     "beq 18b\n\t"
                     "b 12b\n"
                     "46:\n\t"
                     "fpr%= s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, 8\n\t"
                     "b 47f\n"
                     "48:\n\t"
                     "vmov s4, s5, %[z], %[wl]\n"
                     "vmov s10, s11, %[z], %[wl]\n"
                     "47:\n\t"
                     "fpr%= s2, s3, s4, s5, s0, s1, s8, s9, s10, s11, s6, s7, 12\n\t"
                     "subs %[n], %[n], #3\n\t"
                     "cmp %[mask], #0\n\t"
                     "beq 19b\n\t"
                     "b 13b\n"
                     "99:\n\t"
                     ".purgem fpr%=\n\t"
                     ".purgem fpj%=\n\t"
                     ".purgem fpv%=\n\t"
                     ".purgem fpw%="
                     : [t] "=&r"(t), [u] "=&r"(u), [v] "=&r"(v), [z] "=&r"(z), [p] "=&r"(p), [o] "=&r"(o), [n] "=&r"(n),
                       [wl] "=&r"(wl)
                     : [dc] "r"(dc * 4), [row] "r"(row * 4), [orow] "r"(orow * 4), [q] "r"(q), [mask] "r"(q->relu_mask),
                       [gp_off] "i"(offsetof(aot_dw_out_t, gp)), [gw_off] "i"(offsetof(aot_dw_out_t, gw)),
                       [gb_off] "i"(offsetof(aot_dw_out_t, gb)), [gbs_off] "i"(offsetof(aot_dw_out_t, gbs)),
                       [gn_off] "i"(offsetof(aot_dw_out_t, gn)), [groups_off] "i"(offsetof(aot_dw_out_t, groups)),
                       [la] "i"(la), [hb] "i"(hb), [lo_off] "i"(offsetof(aot_dw_out_t, lo)),
                       [top_off] "i"(offsetof(aot_dw_out_t, top)), [rot_off] "i"(offsetof(aot_dw_out_t, rot)),
                       [head_off] "i"(offsetof(aot_dw_out_t, head)), [wdc_off] "i"(offsetof(aot_dw_out_t, wdc4)),
                       [wrow_off] "i"(offsetof(aot_dw_out_t, wrow4)), [bottom_off] "i"(offsetof(aot_dw_out_t, bottom))
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                       "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28",
                       "s29", "s30", "s31", "memory", "cc");
    (void)u;
    (void)v;
}
#if !defined(AOT_DW_F32_PART)
/* Out of line, as aot_dw_fpu_slide3: inside the image, at the left edge. */
static __attribute__((noinline)) void aot_dw_fpu_pair_in(int32_t dc, int32_t row, aot_dw_out_t* q, int32_t orow)
{
    aot_dw_fpu_pair(dc, row, 0, 3, q, orow);
}
static __attribute__((noinline)) void aot_dw_fpu_pair_left(int32_t dc, int32_t row, aot_dw_out_t* q, int32_t orow)
{
    aot_dw_fpu_pair(dc, row, 1, 3, q, orow);
}
#endif /* !AOT_DW_F32_PART */
#endif
#if !defined(AOT_DW_F32_PART) /* the rest: depthwise_conv2d_f32_vec.c */

/* n >= 2 outputs of a column from input row p on, `dc` floats between its NC tap columns, `row` between rows; the
 * weights from wp (the first tap), `wdc` floats between tap columns, `wrow` between filter rows.  p is the first
 * output's first filter row, or with `top` its second (the first is above the image: the output's sum starts at
 * the second); with `bottom` the last output's last filter row is below the image. */
static inline __attribute__((always_inline)) void aot_dw_f32_slide(const float* p, int32_t dc, int32_t row,
                                                                   const float* wp, int32_t wdc, int32_t wrow,
                                                                   int32_t NC, const aot_dw_out_t* q, float* o,
                                                                   int32_t orow, int32_t n, int32_t top, int32_t bottom)
{
#if defined(AOT_DW_F32_MVE_ASM)
    /* Eight Q registers hold the three sums, an input and a weight, not nine weights: the slide loads each weight
     * from a copy of the column's taps ([fy][fx][4], immediate offsets). */
    float wl[36];
    int32_t i;
    (void)top;
    (void)bottom;
    for (i = 0; i < 3; i++) {
        vst1q_f32(wl + i * 12, vld1q_f32(wp + i * wrow));
        vst1q_f32(wl + i * 12 + 4, vld1q_f32(wp + i * wrow + wdc));
        if (NC == 3) {
            vst1q_f32(wl + i * 12 + 8, vld1q_f32(wp + i * wrow + 2 * wdc));
        }
    }
    if (NC == 3) {
        aot_dw_mve_slide3(p, dc, row, wl, q, o, orow, n);
    } else {
        aot_dw_mve_slide2(p, dc, row, wl, q, o, orow, n);
    }
#else
    aot_dw_v w[3][3], a = AOT_DW_START(), b = AOT_DW_START(), c = AOT_DW_START();
    int32_t i;
    for (i = 0; i < 3; i++) {
        w[i][0] = AOT_DW_LD(wp + i * wrow);
        w[i][1] = AOT_DW_LD(wp + i * wrow + wdc);
        w[i][2] = NC == 3 ? AOT_DW_LD(wp + i * wrow + 2 * wdc) : AOT_DW_ZERO();
    }
    if (!top) {
        AOT_DW_TAPS1(a, 0);
        p += row;
    }
    AOT_DW_TAPS2(a, 1, b, 0);
    p += row;
    /* Rows whose three outputs all exist: n - 2 of them; three at a time, the roles rotating. */
    for (i = n - 2; i >= 3; i -= 3) {
        AOT_DW_ROW3(a, b, c);
        AOT_DW_ROW3(b, c, a);
        AOT_DW_ROW3(c, a, b);
    }
    for (; i > 0; i--) {
        AOT_DW_ROW3(a, b, c);
        a = b;
        b = c;
    }
    /* The last two outputs: a takes its last row, b its middle one; then b its last (unless below the image). */
    AOT_DW_TAPS2(a, 2, b, 1);
    aot_dw_out(a, q, o);
    p += row;
    o += orow;
    if (!bottom) {
        AOT_DW_TAPS1(b, 2);
    }
    aot_dw_out(b, q, o);
#endif
}

/* Output rows [oy0, oy1) of column ox (taps [xl, xh) along x), channels c0 on: pairs of rows, 4 channels at a time.
 * Both windows of a pair have the same taps inside the image along x, and along y too everywhere but at the
 * image's top and bottom edges; a pair whose windows have the same taps is one rectangle of taps for both, other
 * pixels one rectangle each. */
static void aot_dw_f32_rows(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                            int32_t filter_h, int32_t filter_w, const float* bias, float* out_b, int32_t out_w,
                            int32_t stride_h, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t x0,
                            int32_t ox, int32_t xl, int32_t xh, int32_t oy0, int32_t oy1, int32_t c0, float act_min,
                            float act_max)
{
    const int32_t row = dilation_h * in_w * in_c, wrow = filter_w * in_c, dil = dilation_w * in_c;
    int32_t oy, c, r;
    for (oy = oy0; oy < oy1; oy += 2) {
        const int32_t y0 = oy * stride_h - pad_top, pixels = oy + 1 < oy1 ? 2 : 1;
        int32_t yl0, yh0, yl1, yh1;
        float* o0 = out_b + (oy * out_w + ox) * in_c;
        float* o1 = o0 + (pixels - 1) * out_w * in_c;
        aot_dw_f32_range(y0, in_h, dilation_h, filter_h, &yl0, &yh0);
        aot_dw_f32_range(y0 + stride_h, in_h, dilation_h, filter_h, &yl1, &yh1);
        for (c = c0; c < in_c; c += 4) {
            float acc[8];
            const int32_t n = in_c - c < 4 ? in_c - c : 4;
            if (n < 4) {
                for (r = 0; r < pixels; r++) {
                    float part[8];
                    aot_dw_f32_quad(in_b + c, in_h, in_w, in_c, filter + c, filter_h, filter_w, dilation_h, dilation_w,
                                    y0 + r * stride_h, x0, 0, 0, n, part);
                    acc[4 * r + 0] = part[0];
                    acc[4 * r + 1] = part[1];
                    acc[4 * r + 2] = part[2];
                    acc[4 * r + 3] = part[3];
                }
                aot_dw_f32_store(acc, bias == NULL ? NULL : bias + c, n, pixels, o0 + c, o1 + c, act_min, act_max);
                continue;
            }
            if (pixels == 2 && yl0 == yl1 && yh0 == yh1) {
                aot_dw_f32_rect4(in_b + ((y0 + dilation_h * yl0) * in_w + x0 + dilation_w * xl) * in_c + c,
                                 stride_h * in_w * in_c, filter + (yl0 * filter_w + xl) * in_c + c, yh0 - yl0, xh - xl,
                                 dil, in_c, row, wrow, acc);
            } else {
                /* Each pixel alone (step 0: its sums in both halves, so one pixel fills acc whole). */
                float part[8];
                aot_dw_f32_rect4(in_b + ((y0 + dilation_h * yl0) * in_w + x0 + dilation_w * xl) * in_c + c, 0,
                                 filter + (yl0 * filter_w + xl) * in_c + c, yh0 - yl0, xh - xl, dil, in_c, row, wrow,
                                 acc);
                if (pixels == 2) {
                    const int32_t y = y0 + stride_h;
                    aot_dw_f32_rect4(in_b + ((y + dilation_h * yl1) * in_w + x0 + dilation_w * xl) * in_c + c, 0,
                                     filter + (yl1 * filter_w + xl) * in_c + c, yh1 - yl1, xh - xl, dil, in_c, row,
                                     wrow, part);
                    acc[4] = part[0];
                    acc[5] = part[1];
                    acc[6] = part[2];
                    acc[7] = part[3];
                }
            }
            aot_f32_out4x2(acc, 4, bias == NULL ? NULL : bias + c, o0 + c, o1 + c, act_min, act_max);
        }
    }
}

/* What a column's slide leaves: the rows above and below it, and the channels after its groups. */
static void aot_dw_f32_rest(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                            int32_t filter_h, int32_t filter_w, const float* bias, float* out_b, int32_t out_w,
                            int32_t stride_h, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t x0,
                            int32_t ox, int32_t xl, int32_t xh, int32_t oy_a, int32_t oy_b, int32_t out_h, int32_t cs,
                            float act_min, float act_max)
{
    aot_dw_f32_rows(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w, stride_h, dilation_h,
                    dilation_w, pad_top, x0, ox, xl, xh, 0, oy_a, 0, act_min, act_max);
    aot_dw_f32_rows(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w, stride_h, dilation_h,
                    dilation_w, pad_top, x0, ox, xl, xh, oy_b, out_h, 0, act_min, act_max);
    if (cs < in_c) {
        aot_dw_f32_rows(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w, stride_h, dilation_h,
                        dilation_w, pad_top, x0, ox, xl, xh, oy_a, oy_b, cs, act_min, act_max);
    }
}
#endif /* !AOT_DW_F32_PART */

#if defined(AOT_DW_F32_MVE)
/* The layers aot_dw_mve_lanes takes: SAME 3x3 at stride and dilation 1 (outputs the input's size), 5 columns or
 * more (4 would be a strip with both edges), any range (an upper bound: aot_dw_mve_min after). */
static inline int32_t aot_dw_lanes_fit(int32_t in_h, int32_t in_w, int32_t filter_h, int32_t filter_w, int32_t out_h,
                                       int32_t out_w, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                                       int32_t dilation_w, int32_t pad_top, int32_t pad_left)
{
    return filter_h == 3 && filter_w == 3 && stride_h == 1 && stride_w == 1 && dilation_h == 1 && dilation_w == 1 &&
           pad_top == 1 && pad_left == 1 && out_h == in_h && out_w == in_w && in_h >= 2 && in_w >= 5;
}

/* The lanes over every batch: in depthwise_conv2d_f32_vec_lanes.c, a unit of its own that the compiler's entry
 * point for such layers (aot_depthwise_conv2d_f32_vec_lanes) links; weak in the kernel's unit, which without it
 * runs such a layer down the columns (the same outputs, more instructions). */
void aot_dw_lanes_run(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                      const float* filter, const float* bias, float* output, float act_min,
                      float act_max) AOT_DW_F32_WEAK;
#endif

#if !defined(AOT_DW_F32_PART)

#if defined(AOT_DW_F32_FPU_ASM)
/* A single column of 3 tap columns whose unit is not linked (aot_dw_fpu_slide3, weak): the pairs of pixels. */
#define AOT_DW_NO_SLIDE3(nc) ((nc) == 3 && aot_dw_fpu_slide3 == NULL)
#else
#define AOT_DW_NO_SLIDE3(nc) 0
#endif

/* A column at a time.  Filters of 3 rows at stride 1 and dilation 1 down the column, with 2 or 3 tap columns inside
 * the image: the rows whose windows lie inside the image (at least 2 of them) slide (aot_dw_f32_slide) over the
 * channels that fill its groups; the other rows and channels, and every other layer, take aot_dw_f32_rows. */
void aot_depthwise_conv2d_f32_vec(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                  const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                  float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                  int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                  float act_min, float act_max)
{
#if defined(AOT_DW_F32_MVE)
    if (aot_dw_lanes_run != NULL && aot_dw_lanes_fit(in_h, in_w, filter_h, filter_w, out_h, out_w, stride_h, stride_w,
                                                     dilation_h, dilation_w, pad_top, pad_left)) {
        aot_dw_lanes_run(input, batches, in_h, in_w, in_c, filter, bias, output, act_min, act_max);
        return;
    }
#endif
    /* The slide's outputs [oy_a, oy_b): those whose windows lie inside the image, and the one above (below) them
     * whose first (last) filter row is the only one outside. */
    const int32_t oy_lo = pad_top > 0 ? pad_top : 0;
    const int32_t oy_hi = in_h - 2 + pad_top < out_h ? in_h - 2 + pad_top : out_h;
    const int32_t top = pad_top == 1 && oy_hi >= 1, bottom = oy_hi < out_h && oy_hi >= oy_lo;
    const int32_t oy_a = oy_lo - top, oy_b = oy_hi + bottom;
    const int32_t cs = in_c - in_c % AOT_DW_LANES;
    aot_dw_out_t q;
    int32_t b, ox;
    q.lo = act_min;
    q.hi = act_max;
    q.clamp = !(act_max == FLT_MAX && (act_min == 0.0f || act_min == -FLT_MAX));
    /* ReLU (0, FLT_MAX): FPv4 clears a negative sum's bits, FPv5's slides take their loops of VMAXNM only. */
    q.relu_mask = act_min == 0.0f && !q.clamp ? 0xffffffffu : 0u;
    q.top = top;
    q.bottom = bottom;
    q.wdc4 = in_c * 4;
    q.wrow4 = filter_w * in_c * 4;
    for (ox = 0; ox < 4; ox++) {
        q.lo4[ox] = act_min;
        q.hi4[ox] = act_max;
    }
#if defined(AOT_DW_F32_FPU_ASM)
    static const float aot_dw_zeros2[2] = {0.0f, 0.0f}; /* the FPU slides' bias without one */
#endif
#if defined(AOT_DW_F32_FPU_ASM) && defined(AOT_F32_OUT_FPV4)
    /* FPv4's slide stores ReLU and "none" only (f32_out.h); other ranges take the pairs of pixels. */
    const int32_t slides = filter_h == 3 && stride_h == 1 && dilation_h == 1 && !q.clamp;
#else
    const int32_t slides = filter_h == 3 && stride_h == 1 && dilation_h == 1;
#endif
    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        float* out_b = output + b * out_h * out_w * in_c;
        for (ox = 0; ox < out_w; ox++) {
            const int32_t x0 = ox * stride_w - pad_left;
            int32_t xl, xh, c, nc;
            aot_dw_f32_range(x0, in_w, dilation_w, filter_w, &xl, &xh);
            nc = xh - xl;
#if defined(AOT_DW_F32_MVE_ASM) || defined(AOT_DW_F32_FPU_ASM)
            if (slides && stride_w == 1 && dilation_w == 1 && filter_w == 3 && ox + 1 < out_w && xh == 3 && nc >= 2 &&
                oy_b - oy_a >= 2 && cs > 0) {
                /* Columns ox and ox + 1 together (aot_dw_mve_pair): B's window is A's one input column on. */
                int32_t xlb, xhb;
                aot_dw_f32_range(x0 + 1, in_w, 1, 3, &xlb, &xhb);
#if defined(AOT_DW_F32_FPU_ASM)
                /* The FPU pairs have no right-edge form (its 2.2-2.5 KB of code for an even width's last two columns,
                 * which take the single column's slide instead). */
                if (xlb == 0 && xhb == 3) {
#else
                /* Helium's pairs: inside the image only (aot_dw_mve_pair_in). */
                if (xl == 0 && xlb == 0 && xhb == 3) {
#endif
                    int32_t i;
#if defined(AOT_DW_F32_FPU_ASM)
                    /* All the groups in one call: the weights from the filter itself (held in s12-s29). */
                    q.gp = in_b + ((oy_a + top - pad_top) * in_w + x0 + xl) * in_c;
                    q.go = out_b + (oy_a * out_w + ox) * in_c;
                    q.gw = filter;
                    q.gb = bias != NULL ? bias : aot_dw_zeros2;
                    q.gbs = bias != NULL ? 8 : 0;
                    q.gn = oy_b - oy_a;
                    q.groups = cs / 2;
                    q.rot = (3 - (q.gn - 2) % 3) % 3;
                    if (xl == 1) {
                        aot_dw_fpu_pair_left(in_c, in_w * in_c, &q, out_w * in_c);
                    } else {
                        aot_dw_fpu_pair_in(in_c, in_w * in_c, &q, out_w * in_c);
                    }
#else
                    for (c = 0; c < cs; c += AOT_DW_LANES) {
                        const float* p = in_b + ((oy_a + top - pad_top) * in_w + x0 + xl) * in_c + c;
                        float* o = out_b + (oy_a * out_w + ox) * in_c + c;
                        float wl[36];
                        for (i = 0; i < 9; i++) {
                            vst1q_f32(wl + 4 * i, vld1q_f32(filter + i * in_c + c));
                        }
                        q.bias = bias != NULL ? vld1q_f32(bias + c) : vdupq_n_f32(0.0f);
                        aot_dw_mve_pair_in(p, in_c, in_w * in_c, wl, &q, o, out_w * in_c, oy_b - oy_a);
                    }
#endif
                    for (i = 0; i < 2; i++) {
                        const int32_t xa = x0 + i;
                        int32_t l, h;
                        aot_dw_f32_range(xa, in_w, 1, 3, &l, &h);
                        aot_dw_f32_rest(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w,
                                        stride_h, dilation_h, dilation_w, pad_top, xa, ox + i, l, h, oy_a, oy_b, out_h,
                                        cs, act_min, act_max);
                    }
                    ox++;
                    continue;
                }
            }
#endif
            if (!slides || nc < 2 || nc > 3 || oy_b - oy_a < 2 || cs == 0 || AOT_DW_NO_SLIDE3(nc)) {
                aot_dw_f32_rows(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w, stride_h,
                                dilation_h, dilation_w, pad_top, x0, ox, xl, xh, 0, out_h, 0, act_min, act_max);
                continue;
            }
#if defined(AOT_DW_F32_FPU_ASM)
            (void)c;
            q.gp = in_b + ((oy_a + top - pad_top) * in_w + x0 + dilation_w * xl) * in_c;
            q.go = out_b + (oy_a * out_w + ox) * in_c;
            q.gw = filter + xl * in_c;
            q.gb = bias != NULL ? bias : aot_dw_zeros2;
            q.gbs = bias != NULL ? 8 : 0;
            q.gn = oy_b - oy_a;
            q.groups = cs / 2;
            q.rot = (3 - (q.gn - 2) % 3) % 3;
            if (nc == 3) {
                aot_dw_fpu_slide3(dilation_w * in_c, in_w * in_c, &q, out_w * in_c);
            } else {
                aot_dw_fpu_slide2(dilation_w * in_c, in_w * in_c, &q, out_w * in_c);
            }
#else
            for (c = 0; c < cs; c += AOT_DW_LANES) {
                const float* p = in_b + ((oy_a + top - pad_top) * in_w + x0 + dilation_w * xl) * in_c + c;
                float* o = out_b + (oy_a * out_w + ox) * in_c + c;
                const float* wp = filter + xl * in_c + c;
                if (bias != NULL) {
                    q.bias = AOT_DW_LD(bias + c);
                } else {
#if defined(AOT_DW_F32_MVE)
                    q.bias = vdupq_n_f32(0.0f);
#else
                    /* The sums' start: +0.0f, the reference's. */
                    q.bias.l0 = 0.0f;
                    q.bias.l1 = 0.0f;
#endif
                }
                if (nc == 3) {
                    aot_dw_f32_slide(p, dilation_w * in_c, in_w * in_c, wp, in_c, filter_w * in_c, 3, &q, o,
                                     out_w * in_c, oy_b - oy_a, top, bottom);
                } else {
                    aot_dw_f32_slide(p, dilation_w * in_c, in_w * in_c, wp, in_c, filter_w * in_c, 2, &q, o,
                                     out_w * in_c, oy_b - oy_a, top, bottom);
                }
            }
#endif
            aot_dw_f32_rest(in_b, in_h, in_w, in_c, filter, filter_h, filter_w, bias, out_b, out_w, stride_h,
                            dilation_h, dilation_w, pad_top, x0, ox, xl, xh, oy_a, oy_b, out_h, cs, act_min, act_max);
        }
    }
}
#endif /* !AOT_DW_F32_PART */

#endif /* AOT_DEPTHWISE_CONV2D_F32_VEC_BODY_H */
