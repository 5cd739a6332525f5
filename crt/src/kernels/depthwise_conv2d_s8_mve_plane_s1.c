/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE) on small images: the entry point
 * aot_depthwise_conv2d_s8_mve_plane_s1 (aot/kernels/depthwise_conv2d.h), the plane form of
 * depthwise_conv2d_s8_mve_plane.h for layers of stride_w 1 whose shifts are all right shifts (or multipliers 0): KWS's
 * and MobileNet's plane layers.  A translation unit of its own: the compiler knows the stride and every channel's
 * shift and calls it for such layers, so their images do not link the general loop and the general requantization
 * of aot_depthwise_conv2d_s8_mve_plane (which inlined the image loop once per requantization).  Without MVE: that
 * entry point.
 */
#include "aot_sched.h"

#include "depthwise_conv2d_s8_mve_plane.h"

void aot_depthwise_conv2d_s8_mve_plane_s1(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                          int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                          const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                          int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                          int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                          int32_t output_offset, const int32_t* out_multiplier,
                                          const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
#if defined(__ARM_FEATURE_MVE)
    const int32_t taps = filter_h * filter_w;
    const int32_t plane_w = aot_dwp_plane_w(in_w, out_w, filter_w, 1, dilation_w, pad_left);
    const int32_t plane_rows = (out_h - 1) * stride_h + (filter_h - 1) * dilation_h + 1;
    /* 16 bytes past the last row: the last windows' loads and wrapped taps stay inside the plane. */
    const int32_t plane_bytes = plane_rows * plane_w + 16;
    const int32_t groups = channels < AOT_DWP_GROUP ? channels : AOT_DWP_GROUP;
    uint8_t lanes[16] = {0};
    mve_pred16_t tap_lanes = 0;
    struct aot_mve_rq rq;
    int32_t b, ky, kx;
    (void)stride_w;
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
        aot_dwp_image(input + b * in_h * in_w * channels, in_h, in_w, channels, filter, taps, vldrbq_u8(lanes),
                      tap_lanes, &rq, output + b * out_h * out_w * channels, out_h, out_w, stride_h, 1, pad_top,
                      pad_left, plane_w, plane_rows, plane_bytes, scratch, 1);
    }
#else
    (void)aot_dwp_plane_w;
    aot_depthwise_conv2d_s8_mve_plane(input, batches, in_h, in_w, channels, filter, filter_h, filter_w, bias, output,
                                      out_h, out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left,
                                      input_zero_point, output_offset, out_multiplier, out_shift, act_min, act_max,
                                      scratch);
#endif
}
