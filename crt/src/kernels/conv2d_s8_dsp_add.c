/* The int8 DSP convolution with a fused residual ADD (aot/kernels/conv2d.h): aot_conv2d_s8_dsp_add, the shared body
 * of conv2d_s8_dsp_body.h instantiated with the ADD (contract: conv2d_s8_dsp.c), in a unit of its own so that a
 * model without fused layers does not link it.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

AOT_CONV_GEMM(aot_conv_gemm_full_add, 1, 1, 0, -1, 0)
AOT_CONV_GEMM(aot_conv_gemm_clamp_add, 0, 1, 0, -1, 0)

#if defined(__OPTIMIZE_SIZE__)
/* -Os: one copy of the layer's loop (im2col, the tiles) choosing the GEMM per tile, where the faster form has a loop
 * per activation range (ResNet-8 on the M4: 0.36 KB less, 954 instructions more). */
static void aot_conv_gemm_add(const uint32_t* pairs, int32_t quads, int32_t tail, const uint32_t* filter,
                              const int8_t* wtail, const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,
                              const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add)
{
    if (rq->full) {
        aot_conv_gemm_full_add(pairs, quads, tail, filter, wtail, bias, out_c, rq, tile, add);
    } else {
        aot_conv_gemm_clamp_add(pairs, quads, tail, filter, wtail, bias, out_c, rq, tile, add);
    }
}

void aot_conv2d_s8_dsp_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int32_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                           int32_t input_zero_point, const int32_t* out_multiplier, const int32_t* out_add,
                           int32_t act_min, int32_t act_max, int32_t* scratch, const int8_t* residual,
                           const struct aot_add_s8_params* residual_add)
{
    aot_conv2d_s8_dsp_run(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w,
                          out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point,
                          out_multiplier, out_add, act_min, act_max, scratch, residual, residual_add,
                          aot_conv_gemm_add);
}
#else

void aot_conv2d_s8_dsp_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                           const int32_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                           int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                           int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                           int32_t input_zero_point, const int32_t* out_multiplier, const int32_t* out_add,
                           int32_t act_min, int32_t act_max, int32_t* scratch, const int8_t* residual,
                           const struct aot_add_s8_params* residual_add)
{
    if (act_min <= -128 && act_max >= 127) {
        aot_conv2d_s8_dsp_run(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w,
                              out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point,
                              out_multiplier, out_add, act_min, act_max, scratch, residual, residual_add,
                              aot_conv_gemm_full_add);
    } else {
        aot_conv2d_s8_dsp_run(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w,
                              out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point,
                              out_multiplier, out_add, act_min, act_max, scratch, residual, residual_add,
                              aot_conv_gemm_clamp_add);
    }
}
#endif
