/* Transposed 2-D convolution (TFLite TRANSPOSE_CONV), NHWC input and output, OHWI filter.
 *
 * Input pixel (iy, ix) adds filter tap (fy, fx) times itself to output pixel (iy * stride_h - pad_top + fy,
 * ix * stride_w - pad_left + fx) when that lies inside the output.  TFLite's reference scatters every input
 * pixel into an accumulator buffer the size of the output; these kernels gather instead: each output pixel
 * sums the taps that reach it (rows iy with 0 <= oy + pad_top - iy * stride_h < filter_h, the same for
 * columns), so they need no scratch and write each output once.  Integer sums are the same in any order
 * (wrapping, as TFLite's int32 accumulator); float sums differ from TFLite's only by rounding order.
 * bias may be NULL.  The output must not overlap the input. */
#ifndef AOT_KERNELS_TRANSPOSE_CONV_H_
#define AOT_KERNELS_TRANSPOSE_CONV_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* int8 per-channel: out = clamp(MBQM(sum (x + input_offset) * w + bias, mult[c], shift[c]) + output_offset). */
void aot_transpose_conv_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                           int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                           int32_t act_min, int32_t act_max);

/* The same on the DSP extension (SMLAD, four output channels per pass over a tap's input values) and on Helium
 * (VMLADAVA.S8, sixteen input channels per instruction), every quantization parameter included: the input offset
 * enters as tap_bias[oc * filter_h * filter_w + tap] = input_offset * (sum of the tap's in_c weights), computed by
 * the compiler and wrapping like the sum, so the products are of the stored int8 values.  Portable code (the same
 * sums) on other cores. */
void aot_transpose_conv_s8_dsp(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                               const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                               int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                               int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                               int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                               int32_t act_min, int32_t act_max, const int32_t* tap_bias);
void aot_transpose_conv_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                               const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                               int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                               int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                               int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                               int32_t act_min, int32_t act_max, const int32_t* tap_bias);

/* int16x8: accumulation and requantization in the layer's `mode` (aot/kernels/acc16_inline.h). */
void aot_transpose_conv_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                            const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max);
/* The same on DSP cores with SMLAD: filter quads in the order of acc16_dsp.h (compiler/ops/common/int16.py
 * dsp_quad_order), int32 and narrowed forms only. */
void aot_transpose_conv_s16_dsp(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                int32_t act_max);

void aot_transpose_conv_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const float* filter, int32_t filter_h, int32_t filter_w, const float* bias, float* output,
                            int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                            int32_t pad_top, int32_t pad_left, float act_min, float act_max);

/* float32 with groups and dilations (ONNX ConvTranspose): the channels split into `groups` equal slices, output
 * channel oc reading only input slice oc / (out_c / groups); filter [out_c, filter_h, filter_w, in_c / groups]
 * (no zero blocks, depthwise is groups == in_c).  Tap (fy, fx) sits dilation_h * fy rows and dilation_w * fx
 * columns from the window's origin, so the filter holds no zeros between taps either. */
void aot_transpose_conv_grouped_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                    const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                    float* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                    int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t dilation_h,
                                    int32_t dilation_w, int32_t groups, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
