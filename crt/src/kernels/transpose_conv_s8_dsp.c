/* int8 TRANSPOSE_CONV with SMLAD (aot/kernels/transpose_conv.h): each quad of a tap's input values is widened once
 * (SXTB16, SXTB16 ROR 8) and multiplied with the matching quads of four output channels' weights, widened the same
 * way (dsp_s8.h: the lanes pair up without reordering the weights); the in_c % 4 last values one by one.  The
 * helpers are portable C off the DSP extension, with the same results. */
#include "aot_sched.h"

#include "aot/kernels/transpose_conv.h"

#include "dsp_s8.h"
#include "transpose_conv_s8_body.h"

/* Not inlined into the walk: with registers of its own the four sums stay in registers across the taps. */
AOT_NOINLINE void pixel4_dsp(const struct aot_tconv_s8_geom* g, int32_t oc, uint32_t* acc)
{
    const int32_t n = g->in_c, fs = g->oc_stride;
    const int8_t* f_oc = g->filter + oc * fs;
    const int32_t* tb = g->tap_bias + oc * g->taps;
    /* SMLAD wraps like the int32 accumulator; the other additions are unsigned for the same wrapping in C. */
    int32_t s0 = (int32_t)acc[0], s1 = (int32_t)acc[1], s2 = (int32_t)acc[2], s3 = (int32_t)acc[3];
    int32_t iy, ix, fy, fx;
    for (iy = g->iy0; iy >= 0 && (fy = g->oy_pad - iy * g->stride_h) < g->filter_h; iy--) {
        for (ix = g->ix0; ix >= 0 && (fx = g->ox_pad - ix * g->stride_w) < g->filter_w; ix--) {
            const int8_t* in_px = g->in_b + (iy * g->in_w + ix) * g->in_c;
            const int32_t tap = fy * g->filter_w + fx;
            const int8_t* f = f_oc + tap * n;
            int32_t c = 0;
            for (; c + 4 <= n; c += 4) {
                const uint32_t x = aot_read32(in_px + c);
                const uint32_t xe = aot_sxtb16(x), xo = aot_sxtb16_ror8(x);
                uint32_t w = aot_read32(f + c);
                s0 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s0));
                w = aot_read32(f + fs + c);
                s1 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s1));
                w = aot_read32(f + 2 * fs + c);
                s2 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s2));
                w = aot_read32(f + 3 * fs + c);
                s3 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s3));
            }
            for (; c < n; c++) {
                const int32_t x = in_px[c];
                s0 = (int32_t)((uint32_t)s0 + (uint32_t)(x * f[c]));
                s1 = (int32_t)((uint32_t)s1 + (uint32_t)(x * f[fs + c]));
                s2 = (int32_t)((uint32_t)s2 + (uint32_t)(x * f[2 * fs + c]));
                s3 = (int32_t)((uint32_t)s3 + (uint32_t)(x * f[3 * fs + c]));
            }
            s0 = (int32_t)((uint32_t)s0 + (uint32_t)tb[tap]);
            s1 = (int32_t)((uint32_t)s1 + (uint32_t)tb[g->taps + tap]);
            s2 = (int32_t)((uint32_t)s2 + (uint32_t)tb[2 * g->taps + tap]);
            s3 = (int32_t)((uint32_t)s3 + (uint32_t)tb[3 * g->taps + tap]);
        }
    }
    acc[0] = (uint32_t)s0;
    acc[1] = (uint32_t)s1;
    acc[2] = (uint32_t)s2;
    acc[3] = (uint32_t)s3;
}

AOT_NOINLINE void pixel1_dsp(const struct aot_tconv_s8_geom* g, int32_t oc, uint32_t* acc)
{
    const int32_t n = g->in_c;
    const int8_t* f_oc = g->filter + oc * g->oc_stride;
    const int32_t* tb = g->tap_bias + oc * g->taps;
    int32_t s = (int32_t)acc[0];
    int32_t iy, ix, fy, fx;
    for (iy = g->iy0; iy >= 0 && (fy = g->oy_pad - iy * g->stride_h) < g->filter_h; iy--) {
        for (ix = g->ix0; ix >= 0 && (fx = g->ox_pad - ix * g->stride_w) < g->filter_w; ix--) {
            const int8_t* in_px = g->in_b + (iy * g->in_w + ix) * g->in_c;
            const int32_t tap = fy * g->filter_w + fx;
            const int8_t* f = f_oc + tap * n;
            int32_t c = 0;
            for (; c + 4 <= n; c += 4) {
                const uint32_t x = aot_read32(in_px + c), w = aot_read32(f + c);
                s = aot_smlad(aot_sxtb16_ror8(x), aot_sxtb16_ror8(w), aot_smlad(aot_sxtb16(x), aot_sxtb16(w), s));
            }
            for (; c < n; c++) {
                s = (int32_t)((uint32_t)s + (uint32_t)(in_px[c] * f[c]));
            }
            s = (int32_t)((uint32_t)s + (uint32_t)tb[tap]);
        }
    }
    acc[0] = (uint32_t)s;
}

void aot_transpose_conv_s8_dsp(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                               const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                               int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                               int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                               int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                               int32_t act_min, int32_t act_max, const int32_t* tap_bias)
{
    (void)input_offset; /* in tap_bias */
    aot_tconv_s8_walk(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w, out_c,
                      stride_h, stride_w, pad_top, pad_left, output_offset, out_multiplier, out_shift, act_min, act_max,
                      tap_bias, pixel4_dsp, pixel1_dsp, aot_tconv_store4_scalar);
}
