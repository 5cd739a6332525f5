/* int8 TRANSPOSE_CONV with SMLAD (aot/kernels/transpose_conv.h): each quad of a tap's input values is widened once
 * (SXTB16, SXTB16 ROR 8) and multiplied with the matching quads of four output channels' weights, widened the same
 * way (dsp_s8.h: the lanes pair up without reordering the weights); the in_c % 4 last values one by one.  The
 * helpers are portable C off the DSP extension, with the same results. */
#include "aot/kernels/transpose_conv.h"

#include "dsp_s8.h"
#include "transpose_conv_s8_body.h"

/* Not inlined into the walk: with its own registers the five pointers and four sums stay out of the stack. */
AOT_NOINLINE void dot4_dsp(const int8_t* in, const int8_t* f, int32_t f_stride, int32_t n, uint32_t* acc)
{
    const int8_t* f1 = f + f_stride;
    const int8_t* f2 = f1 + f_stride;
    const int8_t* f3 = f2 + f_stride;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, c = 0;
    for (; c + 4 <= n; c += 4) {
        const uint32_t x = aot_read32(in + c);
        const uint32_t xe = aot_sxtb16(x), xo = aot_sxtb16_ror8(x);
        uint32_t w = aot_read32(f + c);
        s0 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s0));
        w = aot_read32(f1 + c);
        s1 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s1));
        w = aot_read32(f2 + c);
        s2 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s2));
        w = aot_read32(f3 + c);
        s3 = aot_smlad(xo, aot_sxtb16_ror8(w), aot_smlad(xe, aot_sxtb16(w), s3));
    }
    for (; c < n; c++) {
        const int32_t x = in[c];
        s0 += x * f[c];
        s1 += x * f1[c];
        s2 += x * f2[c];
        s3 += x * f3[c];
    }
    acc[0] += (uint32_t)s0;
    acc[1] += (uint32_t)s1;
    acc[2] += (uint32_t)s2;
    acc[3] += (uint32_t)s3;
}

static int32_t dot1_dsp(const int8_t* in, const int8_t* f, int32_t n)
{
    int32_t s = 0, c = 0;
    for (; c + 4 <= n; c += 4) {
        const uint32_t x = aot_read32(in + c), w = aot_read32(f + c);
        s = aot_smlad(aot_sxtb16_ror8(x), aot_sxtb16_ror8(w), aot_smlad(aot_sxtb16(x), aot_sxtb16(w), s));
    }
    for (; c < n; c++) {
        s += in[c] * f[c];
    }
    return s;
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
                      stride_h, stride_w, pad_top, pad_left, output_offset, out_multiplier, out_shift, act_min,
                      act_max, tap_bias, dot4_dsp, dot1_dsp);
}
