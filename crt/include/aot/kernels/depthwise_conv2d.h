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

void aot_depthwise_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                             const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                             const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                             int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                             int32_t pad_left, int32_t input_offset, int32_t output_offset,
                             const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max);

/* Helium (MVE) fast path (portable fallback elsewhere), depth multiplier 1, any filter size, stride, dilation and
 * padding: filter as in the model, input zero point folded into `bias` (taps outside the image read
 * input_zero_point); per channel a multiplier and a TFLite shift; scratch as depthwise_conv2d_s8_mve.c says. */
void aot_depthwise_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                                 const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                 int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                 int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                 int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                                 const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);

/* The same layers' faster forms, each in a unit of its own (depthwise_conv2d_s8_mve_strip.c, _3x3.c, _3x3_image.c,
 * _3x3_left.c) so that an image links only the forms its layers take; the compiler calls the one a layer qualifies for
 * (compiler/ops/common/mve_layout.py, dw_mve_entry), and each assumes its conditions.  The strip form: filter 3x3,
 * dilation 1, stride_h == stride_w of 1 or 2, some window leaving the image, and the strip fitting the scratch
 * (aot_dws_fits in depthwise_conv2d_s8_mve_strip.h).  The 3x3 forms: filter 3x3, dilation 1, stride_w 1 or 2,
 * channels a multiple of 8, out_w >= 2, for _3x3 and _3x3_image every channel's shift a right shift (or multiplier 0),
 * and for _3x3_image an image padded sideways, stride_h == stride_w and the padded image of 8 channels fitting the
 * scratch (aot_dw3_image_form in depthwise_conv2d_s8_mve_3x3.h). */
void aot_depthwise_conv2d_s8_mve_strip(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                       int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                       int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                       int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                                       int32_t act_min, int32_t act_max, int8_t* scratch);

void aot_depthwise_conv2d_s8_mve_3x3(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                                     const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                     int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                     int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                     int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                                     const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);

void aot_depthwise_conv2d_s8_mve_3x3_image(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                           int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                           const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                           int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                           int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                           int32_t output_offset, const int32_t* out_multiplier,
                                           const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);
void aot_depthwise_conv2d_s8_mve_3x3_left(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                          int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                          const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                          int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                          int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                          int32_t output_offset, const int32_t* out_multiplier,
                                          const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);

/* Helium (MVE) path for small images (portable fallback elsewhere), depth multiplier 1: the taps of every window
 * lie within 16 consecutive bytes of a channel plane (the compiler checks it: depthwise_conv2d_s8_mve_plane.c);
 * filter as [channels][filter_h * filter_w], input zero point folded into `bias`; per channel a multiplier and a
 * TFLite shift; scratch as that file says. */
void aot_depthwise_conv2d_s8_mve_plane(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                       int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                       int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                       int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                                       int32_t act_min, int32_t act_max, int8_t* scratch);

/* The same for layers of stride_w 1 whose shifts are all right shifts (or multipliers 0), in a unit of its own
 * (depthwise_conv2d_s8_mve_plane_s1.c): the compiler calls it for such layers. */
void aot_depthwise_conv2d_s8_mve_plane_s1(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                          int32_t channels, const int8_t* filter, int32_t filter_h, int32_t filter_w,
                                          const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                          int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                                          int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                          int32_t output_offset, const int32_t* out_multiplier,
                                          const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);

/* DSP-extension fast path (portable fallback elsewhere) for 3x3 filters, depth multiplier 1, no dilation,
 * on the image as it is or transposed (rows/columns given as byte steps; filter per channel 9 bytes, (w0, w1, w2)
 * per filter row in the same orientation); `bias` doubled with the input zero point folded in (taps outside the
 * image read input_zero_point); per channel a multiplier and an add constant (output offset and rounding); weight
 * layout and scratch as depthwise_conv2d_s8_dsp.c says. */
void aot_depthwise_conv2d_s8_dsp(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows,
                                 int32_t in_cols, int32_t in_row_step, int32_t in_col_step, const int8_t* filter,
                                 const int32_t* bias, int8_t* output, int32_t out_rows, int32_t out_cols,
                                 int32_t out_row_step, int32_t out_col_step, int32_t stride_r, int32_t stride_c,
                                 int32_t pad_r, int32_t pad_c, int32_t input_zero_point, const int32_t* out_multiplier,
                                 const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch);

/* The same with TFLite's full requantization per output: per channel zp * 256 + shift instead of the add
 * constant.  For layers with a channel whose quantization the short form cannot express exactly. */
void aot_depthwise_conv2d_s8_dsp_exact(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows,
                                       int32_t in_cols, int32_t in_row_step, int32_t in_col_step, const int8_t* filter,
                                       const int32_t* bias, int8_t* output, int32_t out_rows, int32_t out_cols,
                                       int32_t out_row_step, int32_t out_col_step, int32_t stride_r, int32_t stride_c,
                                       int32_t pad_r, int32_t pad_c, int32_t input_zero_point,
                                       const int32_t* out_multiplier, const int32_t* out_zp_shift, int32_t act_min,
                                       int32_t act_max, int32_t* scratch);

/* The same for small images with many channels (channels % 4 == 0, image as it is): four channels per input
 * word; the int8 filter as in the model and per four channels a record of int32 constants; layouts and scratch as
 * depthwise_conv2d_s8_dsp.c says. */
void aot_depthwise_conv2d_s8_dsp_c4(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows,
                                    int32_t in_cols, const int8_t* filter, const int32_t* params, int8_t* output,
                                    int32_t out_rows, int32_t out_cols, int32_t stride_r, int32_t stride_c,
                                    int32_t pad_top, int32_t pad_left, int32_t input_zero_point, int32_t act_min,
                                    int32_t act_max, int32_t* scratch);

/* int16x8 (int16 activations with zero point 0, int8 [1][kh][kw][in_c * depth_multiplier] filter):
 * accumulation and requantization in the layer's `mode` (aot/kernels/acc16_inline.h); bias may be NULL. */
void aot_depthwise_conv2d_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                              const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                              const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                              int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                              int32_t pad_left, int32_t mode, const int32_t* out_multiplier, const int32_t* out_shift,
                              int32_t act_min, int32_t act_max);

void aot_depthwise_conv2d_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                              const float* filter, int32_t filter_h, int32_t filter_w, int32_t depth_multiplier,
                              const float* bias, float* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                              int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                              int32_t pad_left, float act_min, float act_max);
/* The same for depth multiplier 1, fast (crt/src/kernels/depthwise_conv2d_f32_vec.c): 3-row filters at stride 1
 * slide down the output columns (a group of channels, three outputs live), other layers take pairs of pixels times
 * 4 channels; the filter as the model has it ([1, filter_h, filter_w, in_c]).  Each output is the reference
 * kernel's sum in its order, each step a fused multiply-add. */
void aot_depthwise_conv2d_f32_vec(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                  const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                  float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                  int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                  float act_min, float act_max);
/* The same, linking the FPU cores' slide of a single column of 3 tap columns (a unit of its own: without it such a
 * column takes the pairs of pixels, the same outputs, more instructions); the compiler's entry point for a layer
 * that has one. */
void aot_depthwise_conv2d_f32_vec3(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                   const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                   float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                   int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                   float act_min, float act_max);
/* The same for a SAME 3x3 layer at stride and dilation 1 of 5 columns or more (outputs the input's size): on
 * Helium its lanes of one channel alone (a unit of its own, without the kernel's column forms); elsewhere the
 * kernel.  The compiler's entry point for such a layer on the Cortex-M55. */
void aot_depthwise_conv2d_f32_vec_lanes(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                        const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                        float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                        int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                        float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
