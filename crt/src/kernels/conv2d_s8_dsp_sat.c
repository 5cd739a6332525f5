/* aot_conv2d_s8_dsp_sat, the DSP convolution for layers whose activation range is all of int8 (the saturating
 * narrowing is the clamp), over the shared body of conv2d_s8_dsp_body.h (contract: conv2d_s8_dsp.c). A unit of its
 * own, so that an image built without -ffunction-sections links it only when a layer calls it.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

AOT_CONV_GEMM(aot_conv_gemm_full, 1, 0, 0, -1, 0)

AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_sat, aot_conv_gemm_full)
