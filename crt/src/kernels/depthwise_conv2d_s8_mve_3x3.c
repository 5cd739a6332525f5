/* int8 depthwise convolution (depth multiplier 1) for cores with Helium (MVE): the entry point
 * aot_depthwise_conv2d_s8_mve_3x3 (aot/kernels/depthwise_conv2d.h), the row form of depthwise_conv2d_s8_mve_3x3.h
 * (output row by output row, the filter rows in place or from a rolling band of padded rows) for layers whose shifts
 * are all right shifts (or multipliers 0).  A translation unit of its own: the compiler chooses the entry point from
 * the layer's geometry and shifts, so an image links only the forms its layers take.  Unoptimised or without MVE: the
 * generic aot_depthwise_conv2d_s8_mve.
 */
#include "aot_sched.h"

#include "depthwise_conv2d_s8_mve_3x3.h"

void aot_depthwise_conv2d_s8_mve_3x3(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                                     const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                     int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                     int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                     int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                                     const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)
    struct aot_mve_rq rq;
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
    aot_dw3_rows_layer(input, batches, in_h, in_w, channels, filter, &rq, output, out_h, out_w, stride_h, stride_w,
                       pad_top, pad_left, input_zero_point, scratch, 1);
#else
    aot_depthwise_conv2d_s8_mve(input, batches, in_h, in_w, channels, filter, filter_h, filter_w, bias, output, out_h,
                                out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point,
                                output_offset, out_multiplier, out_shift, act_min, act_max, scratch);
#endif
}
