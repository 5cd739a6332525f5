/* Depthwise 2-D convolution, NHWC activations, 1HWC filters.
 *
 * Output channel oc = ic * depth_multiplier + m.  Offsets/bias folding follow
 * the same convention as aot_conv2d_s8.  */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_depthwise_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                             int32_t in_c, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                             int32_t depth_multiplier, const int32_t* bias, int8_t* output,
                             int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                             int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                             int32_t pad_left, int32_t input_offset, int32_t output_offset,
                             const int32_t* out_multiplier, const int32_t* out_shift,
                             int32_t act_min, int32_t act_max);

/* Cortex-M4/M7/M33 fast path (portable fallback elsewhere) for 3x3 filters, depth multiplier 1, no
 * dilation: filter in the model's [1, 3, 3, channels] layout, input zero point folded into `bias` (taps
 * outside the image read input_zero_point), right shifts >= 1 (out_right_shift = -shift); scratch as
 * depthwise_conv2d_s8_dsp.c says. */
void aot_depthwise_conv2d_s8_dsp(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                 int32_t channels, const int8_t* filter, const int32_t* bias, int8_t* output,
                                 int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                 int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                 int32_t output_offset, const int32_t* out_multiplier,
                                 const int32_t* out_right_shift, int32_t act_min, int32_t act_max,
                                 int32_t* scratch);

void aot_depthwise_conv2d_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w,
                              int32_t in_c, const float* filter, int32_t filter_h,
                              int32_t filter_w, int32_t depth_multiplier, const float* bias,
                              float* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                              int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                              int32_t pad_top, int32_t pad_left, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
