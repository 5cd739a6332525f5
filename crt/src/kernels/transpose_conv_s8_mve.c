/* int8 TRANSPOSE_CONV on Helium (aot/kernels/transpose_conv.h): per tap, 16 input values per vector against the
 * same 16 weights of four output channels, one VMLADAVA.S8 each; the in_c % 16 last under a VCTP predicate (the
 * lanes past in_c load as zero).  Without MVE, portable dot products with the same sums. */
#include "aot_sched.h"

#include "aot/kernels/transpose_conv.h"

#include "transpose_conv_s8_body.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "mve_s8.h"

/* TFLite's requantization of four channels at once (mve_s8.h: exact for every multiplier and shift TFLite makes). */
static void store4_mve(const uint32_t* acc, const int32_t* mult, const int32_t* shift, int32_t out_off, int32_t act_min,
                       int32_t act_max, int8_t* out)
{
    int32x4_t v = aot_mve_requant(vreinterpretq_s32_u32(vld1q_u32(acc)), vld1q_s32(mult), vld1q_s32(shift));
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, out_off), vdupq_n_s32(act_min)), vdupq_n_s32(act_max));
    vstrbq_s32(out, v);
}
#else
#define store4_mve aot_tconv_store4_scalar
#endif

/* Not inlined into the walk: with registers of its own the four sums stay in registers across the taps. */
__attribute__((noinline)) static void pixel4_mve(const struct aot_tconv_s8_geom* g, int32_t oc, uint32_t* acc)
{
    const int32_t n = g->in_c, fs = g->oc_stride;
    const int8_t* f_oc = g->filter + oc * fs;
    const int32_t* tb = g->tap_bias + oc * g->taps;
    uint32_t s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
    int32_t iy, ix, fy, fx;
    for (iy = g->iy0; iy >= 0 && (fy = g->oy_pad - iy * g->stride_h) < g->filter_h; iy--) {
        for (ix = g->ix0; ix >= 0 && (fx = g->ox_pad - ix * g->stride_w) < g->filter_w; ix--) {
            const int8_t* in_px = g->in_b + (iy * g->in_w + ix) * g->in_c;
            const int32_t tap = fy * g->filter_w + fx;
            const int8_t* f = f_oc + tap * n;
            int32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, c;
#if defined(__ARM_FEATURE_MVE)
            for (c = 0; c < n; c += 16) {
                const mve_pred16_t p = vctp8q((uint32_t)(n - c));
                const int8x16_t x = vldrbq_z_s8(in_px + c, p);
                t0 = vmladavaq_s8(t0, x, vldrbq_z_s8(f + c, p));
                t1 = vmladavaq_s8(t1, x, vldrbq_z_s8(f + fs + c, p));
                t2 = vmladavaq_s8(t2, x, vldrbq_z_s8(f + 2 * fs + c, p));
                t3 = vmladavaq_s8(t3, x, vldrbq_z_s8(f + 3 * fs + c, p));
            }
#else
            for (c = 0; c < n; c++) {
                const int32_t x = in_px[c];
                t0 += x * f[c];
                t1 += x * f[fs + c];
                t2 += x * f[2 * fs + c];
                t3 += x * f[3 * fs + c];
            }
#endif
            s0 += (uint32_t)t0 + (uint32_t)tb[tap];
            s1 += (uint32_t)t1 + (uint32_t)tb[g->taps + tap];
            s2 += (uint32_t)t2 + (uint32_t)tb[2 * g->taps + tap];
            s3 += (uint32_t)t3 + (uint32_t)tb[3 * g->taps + tap];
        }
    }
    acc[0] = s0;
    acc[1] = s1;
    acc[2] = s2;
    acc[3] = s3;
}

__attribute__((noinline)) static void pixel1_mve(const struct aot_tconv_s8_geom* g, int32_t oc, uint32_t* acc)
{
    const int32_t n = g->in_c;
    const int8_t* f_oc = g->filter + oc * g->oc_stride;
    const int32_t* tb = g->tap_bias + oc * g->taps;
    uint32_t s = acc[0];
    int32_t iy, ix, fy, fx;
    for (iy = g->iy0; iy >= 0 && (fy = g->oy_pad - iy * g->stride_h) < g->filter_h; iy--) {
        for (ix = g->ix0; ix >= 0 && (fx = g->ox_pad - ix * g->stride_w) < g->filter_w; ix--) {
            const int8_t* in_px = g->in_b + (iy * g->in_w + ix) * g->in_c;
            const int32_t tap = fy * g->filter_w + fx;
            const int8_t* f = f_oc + tap * n;
            int32_t t = 0, c;
#if defined(__ARM_FEATURE_MVE)
            for (c = 0; c < n; c += 16) {
                const mve_pred16_t p = vctp8q((uint32_t)(n - c));
                t = vmladavaq_s8(t, vldrbq_z_s8(in_px + c, p), vldrbq_z_s8(f + c, p));
            }
#else
            for (c = 0; c < n; c++) {
                t += in_px[c] * f[c];
            }
#endif
            s += (uint32_t)t + (uint32_t)tb[tap];
        }
    }
    acc[0] = s;
}

void aot_transpose_conv_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                               const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                               int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                               int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                               int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                               int32_t act_min, int32_t act_max, const int32_t* tap_bias)
{
    (void)input_offset; /* in tap_bias */
    aot_tconv_s8_walk(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w, out_c,
                      stride_h, stride_w, pad_top, pad_left, output_offset, out_multiplier, out_shift, act_min, act_max,
                      tap_bias, pixel4_mve, pixel1_mve, store4_mve);
}
