/* int8 TRANSPOSE_CONV on Helium (aot/kernels/transpose_conv.h): per tap, 16 input values per vector against the
 * same 16 weights of four output channels, one VMLADAVA.S8 each; the in_c % 16 last under a VCTP predicate (the
 * lanes past in_c load as zero).  Without MVE, portable dot products with the same sums. */
#include "aot/kernels/transpose_conv.h"

#include "transpose_conv_s8_body.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

__attribute__((noinline)) static void dot4_mve(const int8_t* in, const int8_t* f, int32_t f_stride, int32_t n,
                                               uint32_t* acc)
{
    const int8_t* f1 = f + f_stride;
    const int8_t* f2 = f1 + f_stride;
    const int8_t* f3 = f2 + f_stride;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, c;
    for (c = 0; c < n; c += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(n - c));
        const int8x16_t x = vldrbq_z_s8(in + c, p);
        s0 = vmladavaq_s8(s0, x, vldrbq_z_s8(f + c, p));
        s1 = vmladavaq_s8(s1, x, vldrbq_z_s8(f1 + c, p));
        s2 = vmladavaq_s8(s2, x, vldrbq_z_s8(f2 + c, p));
        s3 = vmladavaq_s8(s3, x, vldrbq_z_s8(f3 + c, p));
    }
    acc[0] += (uint32_t)s0;
    acc[1] += (uint32_t)s1;
    acc[2] += (uint32_t)s2;
    acc[3] += (uint32_t)s3;
}

static int32_t dot1_mve(const int8_t* in, const int8_t* f, int32_t n)
{
    int32_t s = 0, c;
    for (c = 0; c < n; c += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(n - c));
        s = vmladavaq_s8(s, vldrbq_z_s8(in + c, p), vldrbq_z_s8(f + c, p));
    }
    return s;
}

#else

static void dot4_mve(const int8_t* in, const int8_t* f, int32_t f_stride, int32_t n, uint32_t* acc)
{
    int32_t j, c;
    for (j = 0; j < 4; j++) {
        uint32_t s = 0;
        for (c = 0; c < n; c++) {
            s += (uint32_t)(in[c] * f[j * f_stride + c]);
        }
        acc[j] += s;
    }
}

static int32_t dot1_mve(const int8_t* in, const int8_t* f, int32_t n)
{
    uint32_t s = 0;
    int32_t c;
    for (c = 0; c < n; c++) {
        s += (uint32_t)(in[c] * f[c]);
    }
    return (int32_t)s;
}

#endif

void aot_transpose_conv_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                               const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                               int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                               int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                               int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                               int32_t act_min, int32_t act_max, const int32_t* tap_bias)
{
    (void)input_offset; /* in tap_bias */
    aot_tconv_s8_walk(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w, out_c,
                      stride_h, stride_w, pad_top, pad_left, output_offset, out_multiplier, out_shift, act_min,
                      act_max, tap_bias, dot4_mve, dot1_mve);
}
