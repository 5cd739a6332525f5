/* The FPU cores' single column of 3 tap columns inside the image (aot_dw_fpu_slide3, from
 * depthwise_conv2d_f32_vec_body.h), a unit of its own: the compiler calls aot_depthwise_conv2d_f32_vec3 for a layer
 * that has such a column (a VALID layer, or one of an odd width past its pairs of columns), and that call links this
 * unit, whose strong aot_dw_fpu_slide3 the main unit's weak reference then finds.  On the other cores the entry
 * point is the kernel itself. */
#include "aot_sched.h"

#define AOT_DW_F32_SLIDE3_UNIT 1
#include "depthwise_conv2d_f32_vec_body.h"

#if defined(AOT_DW_F32_FPU_ASM)
void aot_dw_fpu_slide3(int32_t dc, int32_t row, aot_dw_out_t* q, int32_t orow)
{
    aot_dw_fpu_slide(dc, row, 3, q, orow);
}
#endif

void aot_depthwise_conv2d_f32_vec3(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                   const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                   float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                   int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                   float act_min, float act_max)
{
    aot_depthwise_conv2d_f32_vec(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h,
                                 out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, act_min,
                                 act_max);
}
