/* aot_conv2d_s8_dsp_k9, the DSP convolution for layers of K = 9 (two quads and one tap: a 3x3 first layer on one
 * channel), the full int8 range and no fused ADD: the quad count and tail literal in its GEMM instance, over the
 * shared body of conv2d_s8_dsp_body.h (contract: conv2d_s8_dsp.c). A unit of its own, so that an image built
 * without -ffunction-sections links it only when a layer calls it.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

#if defined(__OPTIMIZE_SIZE__)
/* -Os: the saturating entry point's GEMM (the tail in its loop) instead of a second instance (ResNet-8 -1.4 KB,
 * +30 K instructions). */
AOT_CONV_DSP_FORWARD(aot_conv2d_s8_dsp_k9, aot_conv2d_s8_dsp_sat)
#else
AOT_CONV_GEMM(aot_conv_gemm_k9, 1, 0, 0, 2, 1)

AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k9, aot_conv_gemm_k9)
#endif
