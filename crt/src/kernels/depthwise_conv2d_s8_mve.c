/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE), with a portable fallback.
 *
 * NHWC keeps a pixel's channels together, so the kernel vectorises across channels: four channels per vector
 * (VLDRB.S32 widens four int8 inputs and four weights to int32 lanes; MVE has no vector-by-vector VMLA, so a
 * VMUL and a VADD accumulate per lane), two horizontally
 * adjacent output pixels per pass so that each weight vector serves both.  The channel count needs no particular
 * value: the last group is predicated (VCTP).  The filter stays as in the model ([kh][kw][channels]).  The input zero
 * point is folded into the bias by the compiler; a tap outside the image then adds weight * zero point (the value
 * TFLite's padding contributes once the fold is undone), so any padding, stride and dilation is exact.
 * Requantization per channel with TFLite's multiplier and shift, vectorised as in mve_s8.h.
 */
#include "aot/kernels/depthwise_conv2d.h"
#include "mve_s8.h"

/* Is input coordinate v inside [0, n)? */
static inline int aot_dw_inside(int32_t v, int32_t n)
{
    return (uint32_t)v < (uint32_t)n;
}

#if defined(__ARM_FEATURE_MVE)

/* Requantizes lanes of acc for channels c.. (predicate p) and stores them at out + c. */
static inline void aot_dw_store(int32x4_t acc, const struct aot_mve_rq* rq, int32_t c, mve_pred16_t p, int8_t* out)
{
    int32x4_t v = aot_mve_requant(acc, vldrwq_z_s32(rq->multiplier + c, p), vldrwq_z_s32(rq->shift + c, p));
    v = vaddq_n_s32(v, rq->out_offset);
    v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(rq->act_min)), vdupq_n_s32(rq->act_max));
    vstrbq_p_s32(out + c, v, p);
}

#endif

void aot_depthwise_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                 int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                 const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                 int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                 int32_t pad_top, int32_t pad_left, int32_t input_zero_point, int32_t output_offset,
                                 const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                 int32_t act_max)
{
    struct aot_mve_rq rq;
    int32_t b, oy, ox, c, ky, kx;
    (void)rq;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = 0;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * channels;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox += 2) {
                /* Output pixels ox and ox + 1 (when there is one). */
                const int two = ox + 1 < out_w;
                const int32_t x0 = ox * stride_w - pad_left;
                const int32_t x1 = x0 + stride_w;
                int8_t* out0 = output + ((b * out_h + oy) * out_w + ox) * channels;
                int8_t* out1 = out0 + channels;
                for (c = 0; c < channels; c += 4) {
#if defined(__ARM_FEATURE_MVE)
                    const mve_pred16_t p = vctp32q((uint32_t)(channels - c));
                    int32x4_t a0 = vldrwq_z_s32(bias + c, p);
                    int32x4_t a1 = a0;
                    const int8_t* wp = filter + c;
                    for (ky = 0; ky < filter_h; ky++) {
                        const int32_t iy = y0 + ky * dilation_h;
                        const int8_t* row = in_b + iy * in_w * channels + c;
                        const int row_in = aot_dw_inside(iy, in_h);
                        for (kx = 0; kx < filter_w; kx++) {
                            const int32_t dx = kx * dilation_w;
                            const int32x4_t w = vldrbq_z_s32(wp, p);
                            if (row_in && aot_dw_inside(x0 + dx, in_w)) {
                                a0 = vaddq_s32(a0, vmulq_s32(vldrbq_z_s32(row + (x0 + dx) * channels, p), w));
                            } else {
                                a0 = vmlaq_n_s32(a0, w, input_zero_point);
                            }
                            if (two) {
                                if (row_in && aot_dw_inside(x1 + dx, in_w)) {
                                    a1 = vaddq_s32(a1, vmulq_s32(vldrbq_z_s32(row + (x1 + dx) * channels, p), w));
                                } else {
                                    a1 = vmlaq_n_s32(a1, w, input_zero_point);
                                }
                            }
                            wp += channels;
                        }
                    }
                    aot_dw_store(a0, &rq, c, p, out0);
                    if (two) {
                        aot_dw_store(a1, &rq, c, p, out1);
                    }
#else
                    /* Portable: the same arithmetic, channel by channel. */
                    int32_t i, s;
                    for (i = c; i < c + 4 && i < channels; i++) {
                        for (s = 0; s < (two ? 2 : 1); s++) {
                            const int32_t xs = s ? x1 : x0;
                            uint32_t acc = (uint32_t)bias[i];
                            int32_t v;
                            for (ky = 0; ky < filter_h; ky++) {
                                const int32_t iy = y0 + ky * dilation_h;
                                for (kx = 0; kx < filter_w; kx++) {
                                    const int32_t ix = xs + kx * dilation_w;
                                    const int32_t w = filter[(ky * filter_w + kx) * channels + i];
                                    const int32_t x = aot_dw_inside(iy, in_h) && aot_dw_inside(ix, in_w)
                                                          ? in_b[(iy * in_w + ix) * channels + i]
                                                          : input_zero_point;
                                    acc += (uint32_t)(w * x);
                                }
                            }
                            v = aot_multiply_by_quantized_multiplier((int32_t)acc, out_multiplier[i], out_shift[i]);
                            v = aot_dsp_clamp((int32_t)((uint32_t)v + (uint32_t)output_offset), act_min, act_max);
                            (s ? out1 : out0)[i] = (int8_t)v;
                        }
                    }
#endif
                }
            }
        }
    }
}
