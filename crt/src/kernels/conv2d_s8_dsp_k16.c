/* aot_conv2d_s8_dsp_k16, the DSP convolution for layers of K = 16 (four quads: a MobileNet expansion layer), the
 * full int8 range and no fused ADD: the quad count and tail literal in its GEMM instance, over the shared body of
 * conv2d_s8_dsp_body.h (contract: conv2d_s8_dsp.c). A unit of its own, so that an image built without -ffunction-
 * sections links it only when a layer calls it.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

#if AOT_CONV_PAIRS_ASM || defined(__OPTIMIZE_SIZE__)
/* With the channel-pairs asm (a K % 4 == 0 layer on a DSP core with GCC or Clang) the saturating entry point runs
 * these layers in fewer instructions than the quad count unrolled here did (MobileNet v2, M4 -O2: 18.56 M ->
 * 17.74 M), and an image links one GEMM: the entry point forwards to it. */
AOT_CONV_DSP_FORWARD(aot_conv2d_s8_dsp_k16, aot_conv2d_s8_dsp_sat)
#else
AOT_CONV_GEMM(aot_conv_gemm_k16, 1, 0, 0, 4, 0)

AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp_k16, aot_conv_gemm_k16)
#endif
