/* Helium's lanes of one channel (aot_dw_lanes_run, from depthwise_conv2d_f32_vec_body.h), a unit of its own: the
 * compiler calls aot_depthwise_conv2d_f32_vec_lanes for a SAME 3x3 layer that the lanes take (aot_dw_lanes_fit:
 * KWS's every depthwise layer), and an image of only such layers links neither the column slides nor the pairs of
 * pixels (the kernel's unit).  On the other cores the entry point is the kernel itself. */
#define AOT_DW_F32_LANES_UNIT 1
#include "depthwise_conv2d_f32_vec_body.h"

#if defined(AOT_DW_F32_MVE)
/* Weak: the compiler calls this entry point only for layers the lanes take; another layer here would need the
 * kernel's unit linked by a call of its own. */
void aot_depthwise_conv2d_f32_vec(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                  const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                  float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                  int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                  float act_min, float act_max) __attribute__((weak));
#endif

void aot_depthwise_conv2d_f32_vec_lanes(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                        const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                        float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                        int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                        float act_min, float act_max)
{
#if defined(AOT_DW_F32_MVE)
    if (aot_dw_lanes_fit(in_h, in_w, filter_h, filter_w, out_h, out_w, stride_h, stride_w, dilation_h, dilation_w,
                         pad_top, pad_left)) {
        aot_dw_lanes_run(input, batches, in_h, in_w, in_c, filter, bias, output, act_min, act_max);
        return;
    }
#endif
    aot_depthwise_conv2d_f32_vec(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h,
                                 out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, act_min,
                                 act_max);
}
