/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE): the entry point
 * aot_depthwise_conv2d_s8_mve_strip (aot/kernels/depthwise_conv2d.h), the strip form of
 * depthwise_conv2d_s8_mve_strip.h (3x3, dilation 1, stride 1 or 2 both ways, some window leaving the image, the strip
 * fitting the scratch: aot_dws_fits), in a translation unit of its own so that only images with such a layer link it.
 * Unoptimised or without MVE: the generic aot_depthwise_conv2d_s8_mve.
 */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/depthwise_conv2d.h"
#include "depthwise_conv2d_s8_mve_strip.h"
#include "mve_s8.h"

void aot_depthwise_conv2d_s8_mve_strip(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                       int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                       int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                       int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                                       int32_t act_min, int32_t act_max, int8_t* scratch)
{
#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)
    struct aot_mve_rq rq;
    struct aot_dws_geom sg;
    const int32_t band_w = (out_w - 1) * stride_w + 3;
    const int32_t strip_scratch = aot_dws_scratch_bytes(stride_w, channels, out_h, out_w, 3 * band_w * channels);
    int32_t b;
    (void)filter_h;
    (void)filter_w;
    (void)dilation_h;
    (void)dilation_w;
    rq.bias = bias;
    rq.multiplier = out_multiplier;
    rq.shift = out_shift;
    rq.per_channel = 1;
    rq.out_offset = output_offset;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.add = NULL;
    sg.in_h = in_h;
    sg.in_w = in_w;
    sg.channels = channels;
    sg.pad_top = pad_top;
    sg.rows = (out_h - 1) * stride_h + 3;
    sg.width = stride_w == 1 ? AOT_DWS_W1 : AOT_DWS_W2;
    sg.zero_point = (int8_t)input_zero_point;
    for (b = 0; b < batches; b++) {
        sg.input = input + b * in_h * in_w * channels;
        aot_dws_image(&sg, filter, &rq, output + b * out_h * out_w * channels, out_h, out_w, stride_w, pad_left,
                      scratch, strip_scratch);
    }
#else
    aot_depthwise_conv2d_s8_mve(input, batches, in_h, in_w, channels, filter, filter_h, filter_w, bias, output, out_h,
                                out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point,
                                output_offset, out_multiplier, out_shift, act_min, act_max, scratch);
#endif
}
