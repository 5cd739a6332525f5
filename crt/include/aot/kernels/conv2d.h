/* 2-D convolution, NHWC activations, OHWI filters (TFLite layout).
 *
 * Per-output-channel requantization (multiplier, shift) is precomputed by the
 * compiler.  When the compiler folded -input_zero_point * sum(filter) into
 * `bias` it passes input_offset = 0; otherwise input_offset = -input_zero_point
 * and out-of-image taps contribute nothing (TFLite padding semantics).
 * Grouped convolution: filter_depth may divide in_c.
 *
 * Fused residual ADD (the *_add forms of the int8 kernels): every output element becomes TFLite's int8 ADD of
 * the convolution's value (after its own activation clamp) as the first input and residual[i] (same NHWC index)
 * as the second, with the parameters in *residual_add (aot/kernels/add.h) -- what running the convolution and
 * then that ADD gives, without storing the convolution's output.  residual may be the output buffer itself:
 * every residual element is read just before the output element of the same index is stored.  */
#ifndef AOT_KERNELS_CONV2D_H_
#define AOT_KERNELS_CONV2D_H_

#include <stdint.h>

struct aot_add_s8_params; /* aot/kernels/add.h */

#ifdef __cplusplus
extern "C" {
#endif

void aot_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const int8_t* filter,
                   int32_t filter_h, int32_t filter_w, int32_t filter_depth, const int32_t* bias, int8_t* output,
                   int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                   int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                   const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max);

void aot_conv2d_s8_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                       const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                       int32_t pad_left, int32_t input_offset, int32_t output_offset, const int32_t* out_multiplier,
                       const int32_t* out_shift, int32_t act_min, int32_t act_max, const int8_t* residual,
                       const struct aot_add_s8_params* residual_add);

/* DSP-extension fast path (portable fallback elsewhere): im2col + 2x2 GEMM on the compiler's weight
 * layout (conv2d_s8_dsp.c); out-of-image taps read input_zero_point, whose product with the weights the
 * compiler folded into `bias`; per channel a multiplier and an add constant holding the output offset and
 * the rounding (crt/src/kernels/dsp_s8.h); scratch as that file says. */
typedef void aot_conv2d_s8_dsp_fn(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                  const int32_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                  int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                  int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                  int32_t pad_left, int32_t input_zero_point, const int32_t* out_multiplier,
                                  const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch);
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp;

/* The same for layers whose activation range is all of int8 (one saturation instead of a clamp), and for such layers
 * with K = filter_h * filter_w * in_c = 8, 9, 16, 24 or 27 and an even out_c (the GEMM unrolled for that K); the
 * compiler picks one per layer.  Same arguments and weight layout. */
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_sat;
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_k8;
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_k9;
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_k16;
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_k24;
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_k27;

/* The same GEMM with TFLite's full requantization per output: out_add holds zp * 256 + shift per channel instead
 * of the add constant.  For layers with a channel whose quantization the short form cannot express exactly. */
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_exact;

/* The same GEMM with a tile of two output pixels (short requantization, any activation range): scratch
 * 2 * (8 * (K / 4) + (K % 4 ? 8 : 0)) bytes, plus filter_w * in_c when that is a multiple of 4 and dilation_w is 1;
 * slower.  For a layer whose scratch sets the model's
 * workspace peak. */
aot_conv2d_s8_dsp_fn aot_conv2d_s8_dsp_t2;
/* Helium (MVE) fast path (portable fallback elsewhere): im2col + GEMM on the compiler's weight layout
 * (crt/src/kernels/mve_s8.h); out-of-image taps read input_zero_point, whose product with the weights the compiler
 * folded into `bias`; per channel a multiplier and a TFLite shift; scratch: 2 * filter_h * filter_w * in_c bytes
 * (none for a 1x1 filter without padding).  The _add form fuses a residual ADD like aot_conv2d_s8_add.  These two
 * require every channel's shift to be a right shift (out_shift < 0) or its multiplier 0; the _left forms, same
 * arguments, take any shifts (the compiler, knowing the constants, picks the form). */
void aot_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                       const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output,
                       int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                       int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                       int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                       const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);
/* The same for layers whose im2col rows the block loop reads zero-padded (aot_mve_row_bytes(K, out_c) != K, the
 * filter not a 1x1 read in place; scratch 2 * aot_mve_row_bytes) that aot_conv2d_s8_mve's first-layer form does not
 * take, in a unit of its own (conv2d_s8_mve_tail.c) that images without such a layer do not link. */
void aot_conv2d_s8_mve_tail(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                            int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                            const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);
void aot_conv2d_s8_mve_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                           int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                           const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch,
                           const int8_t* residual, const struct aot_add_s8_params* residual_add);
/* aot_conv2d_s8_mve_add for a layer whose every pixel pair the runs of the pass take (the compiler's choice, from the
 * shapes: conv2d_s8_mve_runs_add.c), in a unit of its own without the general pass. */
void aot_conv2d_s8_mve_runs_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                int32_t pad_left, int32_t input_zero_point, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                int32_t act_max, int8_t* scratch, const int8_t* residual,
                                const struct aot_add_s8_params* residual_add);
void aot_conv2d_s8_mve_left(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                            int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                            const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch);
void aot_conv2d_s8_mve_left_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                int32_t pad_left, int32_t input_zero_point, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                int32_t act_max, int8_t* scratch, const int8_t* residual,
                                const struct aot_add_s8_params* residual_add);

void aot_conv2d_s8_dsp_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int32_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                           int32_t input_zero_point, const int32_t* out_multiplier, const int32_t* out_add,
                           int32_t act_min, int32_t act_max, int32_t* scratch, const int8_t* residual,
                           const struct aot_add_s8_params* residual_add);

/* int16x8 (int16 activations with zero point 0, int8 weights, grouped when filter_depth < in_c): accumulation
 * and requantization in the layer's `mode` (aot/kernels/acc16_inline.h); bias may be NULL. */
void aot_conv2d_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                    const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth, const int32_t* bias,
                    int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                    int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t mode,
                    const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max);
/* The same on DSP cores with SMLAD: filter quads in the order of acc16_dsp.h (compiler/ops/common/int16.py
 * dsp_quad_order), int32 and narrowed forms only. */
void aot_conv2d_s16_dsp(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                        const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                        const int32_t* bias, int16_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                        int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                        int32_t pad_left, int32_t mode, const int32_t* out_multiplier, const int32_t* out_shift,
                        int32_t act_min, int32_t act_max);

void aot_conv2d_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                    int32_t filter_h, int32_t filter_w, int32_t filter_depth, const float* bias, float* output,
                    int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                    int32_t dilation_w, int32_t pad_top, int32_t pad_left, float act_min, float act_max);
/* The same for groups of one, fast (crt/src/kernels/gemm_f32_tile.h): filter as blocks of `block` output channels,
 * each [K][block] with K = filter_h * filter_w * in_c in (fy, fx, ic) order, the last block zero-padded; scratch
 * NULL (windows read in place) or of 2 * K floats (windows gathered; 3 * K on Helium, three windows at a time; on
 * Helium, when filter_w * in_c is 4, stride_w * in_c 2 and dilation_w 1, at least the padded image too: rows
 * (out_h - 1) * stride_h + (filter_h - 1) * dilation_h + 1 of ((out_w - 1) * stride_w + filter_w) * in_c floats,
 * and 2 floats more).  Each output is the reference kernel's sum in its order, each step a fused multiply-add. */
void aot_conv2d_f32_gemm(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                         const float* filter, int32_t filter_h, int32_t filter_w, int32_t block, const float* bias,
                         float* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                         int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left, float act_min,
                         float act_max, float* scratch);

#ifdef __cplusplus
}
#endif

#endif
