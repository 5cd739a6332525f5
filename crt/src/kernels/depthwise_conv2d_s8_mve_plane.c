/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE) on small images: one VMLADAVA.S8 per
 * output and channel, with a portable fallback.
 *
 * The input's channels are copied, eight at a time, into planes in scratch (one plane per channel: rows of
 * plane_w bytes, the image surrounded by its padding, which holds the input zero point; the zero point itself is
 * folded into the bias by the compiler).  The right padding of a plane row and the left padding of the next one
 * are the same bytes, so plane_w is only as wide as the windows need (see aot_dwp_plane_w).  When the taps of a
 * window lie within 16 consecutive plane bytes (a 3x3 filter on an image up to 5 columns wide, a 2x2 up to 14, ...;
 * the compiler chooses this kernel only then), one 16-byte load holds the whole window, and a weight vector with
 * the channel's taps in the lanes of their plane offsets (zeros elsewhere) takes all of its products in one
 * VMLADAVA: kh * kw MACs per instruction instead of one vector multiply and add per tap.  Four channels of one
 * output pixel go together: their four sums become one vector, requantized across the channels as in mve_s8.h
 * and stored as four bytes.
 *
 * Filter: [channels][filter_h * filter_w] (the model's bytes reordered by the compiler).  Scratch:
 * min(channels, 8) * aot_dwp_plane_bytes() bytes.
 * The entry point here takes any stride and shifts, choosing the requantization at run time; layers of stride_w 1
 * whose shifts are all right shifts call aot_depthwise_conv2d_s8_mve_plane_s1 (depthwise_conv2d_s8_mve_plane_s1.c),
 * which links only that form.  The shared body: depthwise_conv2d_s8_mve_plane.h.
 */
#include "aot_sched.h"

#include "depthwise_conv2d_s8_mve_plane.h"

void aot_depthwise_conv2d_s8_mve_plane(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                       int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                       int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                       int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                                       int32_t act_min, int32_t act_max, int8_t* scratch)
{
    const int32_t taps = filter_h * filter_w;
    int32_t b;
#if defined(__ARM_FEATURE_MVE)
    const int32_t plane_w = aot_dwp_plane_w(in_w, out_w, filter_w, stride_w, dilation_w, pad_left);
    const int32_t plane_rows = (out_h - 1) * stride_h + (filter_h - 1) * dilation_h + 1;
    /* 16 bytes past the last row: the last windows' loads and wrapped taps stay inside the plane. */
    const int32_t plane_bytes = plane_rows * plane_w + 16;
    const int32_t groups = channels < AOT_DWP_GROUP ? channels : AOT_DWP_GROUP;
    const int right = aot_mve_all_right(out_shift, out_multiplier, channels);
    uint8_t lanes[16] = {0};
    mve_pred16_t tap_lanes = 0;
    struct aot_mve_rq rq;
    int32_t ky, kx;
    for (ky = 0; ky < filter_h; ky++) {
        for (kx = 0; kx < filter_w; kx++) {
            const int32_t lane = ky * dilation_h * plane_w + kx * dilation_w;
            lanes[lane] = (uint8_t)(ky * filter_w + kx);
            tap_lanes |= (mve_pred16_t)(1u << lane);
        }
    }
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = 1;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = NULL;
    /* The padding is never overwritten: fill once, then each channel group writes only the image. */
    aot_mve_fill(scratch, groups * plane_bytes, (int8_t)input_zero_point);
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * channels;
        int8_t* out_b = output + b * out_h * out_w * channels;
        if (right) {
            aot_dwp_image(in_b, in_h, in_w, channels, filter, taps, vldrbq_u8(lanes), tap_lanes, &rq, out_b, out_h,
                          out_w, stride_h, stride_w, pad_top, pad_left, plane_w, plane_rows, plane_bytes, scratch, 1);
        } else {
            aot_dwp_image(in_b, in_h, in_w, channels, filter, taps, vldrbq_u8(lanes), tap_lanes, &rq, out_b, out_h,
                          out_w, stride_h, stride_w, pad_top, pad_left, plane_w, plane_rows, plane_bytes, scratch, 0);
        }
    }
#else
    /* Portable: the same arithmetic straight from the input (the host checks the layout and the folded bias). */
    int32_t oy, ox, c, ky, kx;
    (void)scratch;
    (void)aot_dwp_plane_w;
    for (b = 0; b < batches; b++) {
        for (oy = 0; oy < out_h; oy++) {
            for (ox = 0; ox < out_w; ox++) {
                for (c = 0; c < channels; c++) {
                    uint32_t acc = (uint32_t)bias[c];
                    int32_t v;
                    for (ky = 0; ky < filter_h; ky++) {
                        const int32_t iy = oy * stride_h - pad_top + ky * dilation_h;
                        for (kx = 0; kx < filter_w; kx++) {
                            const int32_t ix = ox * stride_w - pad_left + kx * dilation_w;
                            const int32_t x = (uint32_t)iy < (uint32_t)in_h && (uint32_t)ix < (uint32_t)in_w
                                                  ? input[((b * in_h + iy) * in_w + ix) * channels + c]
                                                  : input_zero_point;
                            acc += (uint32_t)(filter[c * taps + ky * filter_w + kx] * x);
                        }
                    }
                    v = aot_multiply_by_quantized_multiplier((int32_t)acc, out_multiplier[c], out_shift[c]);
                    v = aot_dsp_clamp((int32_t)((uint32_t)v + (uint32_t)output_offset), act_min, act_max);
                    output[((b * out_h + oy) * out_w + ox) * channels + c] = (int8_t)v;
                }
            }
        }
    }
#endif
}
