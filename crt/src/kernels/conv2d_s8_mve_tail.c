/* int8 2-D convolution for cores with Helium (MVE), with a portable fallback: the entry point aot_conv2d_s8_mve_tail
 * (aot/kernels/conv2d.h) for layers whose shifts are all right shifts, with no fused ADD, whose im2col rows the block
 * loop reads zero-padded for its unpredicated K % 16 tail (aot_mve_row_bytes(k, out_c) != k, the filter not a 1x1 read
 * in place: KWS's 10x4 first layer).  A translation unit of its own, over conv2d_s8_mve_pass.h, so that images without
 * such a layer do not link this pass (a second inlined copy in aot_conv2d_s8_mve before: 4.4 KB on the Cortex-M55 at
 * -O2).  Another layer (the compiler does not call this for one) goes to aot_conv2d_s8_mve, as do unoptimised builds.
 */
#include "aot_sched.h"

/* conv2d_s8_mve.c's out-of-line routines, declared here only (as in conv2d_s8_mve_add.c). */
#define AOT_MVE_CONV_DECLARE 1
#include "conv2d_s8_mve_pass.h"

void aot_conv2d_s8_mve_tail(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                            int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                            const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
    if (!(filter_h == 1 && filter_w == 1 && pad_top == 0 && pad_left == 0) &&
        aot_mve_row_bytes(filter_h * filter_w * in_c, out_c) != filter_h * filter_w * in_c) {
        AOT_CONV2D_S8_MVE_SETUP;
        rq.add = NULL;
        aot_conv2d_s8_mve_pass(&g, filter, output, batches, out_c, &rq, scratch, NULL, 0, 1, 1);
        return;
    }
#endif
    aot_conv2d_s8_mve(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w, out_c,
                      stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point, output_offset,
                      out_multiplier, out_shift, act_min, act_max, scratch);
}
