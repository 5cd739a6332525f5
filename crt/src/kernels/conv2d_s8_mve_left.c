/* int8 2-D convolution for cores with Helium (MVE), with a portable fallback, for layers with a channel whose
 * TFLite shift is a left shift: the entry point aot_conv2d_s8_mve_left (aot/kernels/conv2d.h), the general pass
 * of conv2d_s8_mve_pass.h, in a translation unit of its own.  The compiler knows every channel's shift and calls
 * aot_conv2d_s8_mve when they all shift right, so an image links this pass only when one of its layers needs it
 * (it was chosen at run time before: about 4.8 KB in every image on the Cortex-M55 at -O2).
 */
#include "aot_sched.h"

/* conv2d_s8_mve.c's out-of-line routines, declared here only (as in conv2d_s8_mve_add.c). */
#define AOT_MVE_CONV_DECLARE 1
#include "conv2d_s8_mve_pass.h"

void aot_conv2d_s8_mve_left(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                            int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                            int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                            const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
    AOT_CONV2D_S8_MVE_SETUP;
    rq.add = NULL;
    aot_conv2d_s8_mve_body(&g, filter, output, batches, out_c, &rq, scratch, NULL, 0, 0);
}
