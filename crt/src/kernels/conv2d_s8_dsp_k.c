/* The int8 DSP convolution's entry points for layers of a few quads (K = 8, 16 or 24: MobileNet's expansion layers;
 * K = 9 or 27: 3x3 first layers on one or three input channels; the full int8 range, no fused ADD), the quad count
 * and tail literal in each GEMM instance, over the shared body of conv2d_s8_dsp_body.h (contract: conv2d_s8_dsp.c).
 * A unit of its own, so that a model without such layers does not link them.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

AOT_CONV_GEMM(aot_conv_gemm_k8, 1, 0, 0, 2, 0)
AOT_CONV_GEMM(aot_conv_gemm_k9, 1, 0, 0, 2, 1)
AOT_CONV_GEMM(aot_conv_gemm_k16, 1, 0, 0, 4, 0)
AOT_CONV_GEMM(aot_conv_gemm_k24, 1, 0, 0, 6, 0)
AOT_CONV_GEMM(aot_conv_gemm_k27, 1, 0, 0, 6, 3)

AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k8, aot_conv_gemm_k8)
AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k9, aot_conv_gemm_k9)
AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k16, aot_conv_gemm_k16)
AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k24, aot_conv_gemm_k24)
AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k27, aot_conv_gemm_k27)
