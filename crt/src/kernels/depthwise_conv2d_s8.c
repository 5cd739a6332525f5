/* Reference int8 depthwise convolution with per-channel requantization: the shared body of
 * aot/kernels/depthwise_conv2d_s8_inline.h with run-time shapes and TFLite's requantization. */
#include "aot_sched.h"

#include "aot/kernels/depthwise_conv2d.h"
#include "aot/kernels/depthwise_conv2d_s8_inline.h"

void aot_depthwise_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                             const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                             const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                             int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                             int32_t pad_left, int32_t input_offset, int32_t output_offset,
                             const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max)
{
    aot_depthwise_conv2d_s8_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, depth_multiplier, bias,
                                 output, out_h, out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left,
                                 input_offset, 0, output_offset, AOT_REQUANT_EXACT, out_multiplier, out_shift, 1,
                                 act_min, act_max, 0);
}
