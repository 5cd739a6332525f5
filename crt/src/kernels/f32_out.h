/* The outputs of the float kernels' tiles (conv2d_f32_gemm.c, fully_connected_f32_gemm.c,
 * depthwise_conv2d_f32_vec.c): two rows of 4 sums, plus the bias (after the sum, as the reference kernels add it),
 * clamped to the activation's range, stored.
 *
 * In C the bias and the clamp cost about 12 instructions an output (a load of each, two compares and branches, a
 * store), as much as the loop of a 1x1 layer's taps at K = 16; here they are one VLDM of the bias, a VADD an output,
 * and the clamp in the registers:
 *  - FPv5 (Cortex-M7, M33) and Helium: VMAXNM/VMINNM by the range's bounds, the reference's clamp for every value
 *    but a NaN sum, which becomes the lower bound where the reference keeps the NaN;
 *  - FPv4 (Cortex-M4F, no VMAXNM): in the core registers for the two ranges that need no comparison, TFLite's
 *    "none" (-FLT_MAX, FLT_MAX: stored as summed) and ReLU (0, FLT_MAX: BIC of the sign, a negative sum becomes
 *    +0.0); a sum that overflowed to +-inf stays infinite there where the reference stops at +-FLT_MAX (onnxruntime
 *    keeps the inf as well).  Other ranges (ReLU6, ...) take the C clamp.
 * The sign of a zero may differ from the C clamp's (VMAXNM(-0, +0) is +0); the float tests compare values.
 */
#ifndef AOT_F32_OUT_H
#define AOT_F32_OUT_H

#include <float.h>
#include <stdint.h>
#include <stddef.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>
#define AOT_F32_OUT_MVE 1
#elif defined(__ARM_FP) && (__ARM_FP & 4) && !defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)
/* FPv5 is FPv4 plus VMAXNM/VMINNM: a double-precision FPv5 (Cortex-M7) or an Armv8-M core's single-precision one
 * (Cortex-M33); a single-precision Cortex-M7 build takes the FPv4 form, which is correct there too.  Not at -O0,
 * whose frame pointer leaves too few registers for the FPv4 form's operands. */
#if (__ARM_FP & 8) || (__ARM_ARCH >= 8)
#define AOT_F32_OUT_FPV5 1
#else
#define AOT_F32_OUT_FPV4 1
#endif
#endif

/* The reference kernels' clamp. */
static inline float aot_f32_clamp(float v, float lo, float hi)
{
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* out0[j] = clamp(acc[j] + bias[j]), out1[j] = clamp(acc[rs + j] + bias[j]), j < 4 (bias NULL: none). */
static inline void aot_f32_out4x2_c(const float* acc, int32_t rs, const float* bias, float* out0, float* out1, float lo,
                                    float hi)
{
    int32_t j;
    for (j = 0; j < 4; j++) {
        const float b = bias != NULL ? bias[j] : 0.0f;
        out0[j] = aot_f32_clamp(bias != NULL ? acc[j] + b : acc[j], lo, hi);
        out1[j] = aot_f32_clamp(bias != NULL ? acc[rs + j] + b : acc[rs + j], lo, hi);
    }
}

/* The two pixels' 4 sums each into s0-s7 and, with a bias (%[b] not NULL), the bias added to both (s8-s11), ending
 * at the label 1: the head the FPv5 and FPv4 asm forms below share.  Operands: %[acc], %[b] (a low register). */
#define AOT_F32_OUT_LOAD_BIAS_ASM                                                                                      \
    "vldm %[acc], {s0-s7}\n\t"                                                                                         \
    "cbz %[b], 1f\n\t"                                                                                                 \
    "vldm %[b], {s8-s11}\n\t"                                                                                          \
    "vadd.f32 s0, s0, s8\n\t"                                                                                          \
    "vadd.f32 s1, s1, s9\n\t"                                                                                          \
    "vadd.f32 s2, s2, s10\n\t"                                                                                         \
    "vadd.f32 s3, s3, s11\n\t"                                                                                         \
    "vadd.f32 s4, s4, s8\n\t"                                                                                          \
    "vadd.f32 s5, s5, s9\n\t"                                                                                          \
    "vadd.f32 s6, s6, s10\n\t"                                                                                         \
    "vadd.f32 s7, s7, s11\n"                                                                                           \
    "1:\n\t"

/* As aot_f32_out4x2_c, the two rows rs floats apart in acc (4 on the FPU, whose tile is 4 wide). out0 may be out1 when
 * both rows hold the same sums. */
static inline void aot_f32_out4x2(const float* acc, int32_t rs, const float* bias, float* out0, float* out1, float lo,
                                  float hi)
{
#if defined(AOT_F32_OUT_MVE)
    float32x4_t v0 = vld1q_f32(acc), v1 = vld1q_f32(acc + rs);
    if (bias != NULL) {
        const float32x4_t b = vld1q_f32(bias);
        v0 = vaddq_f32(v0, b);
        v1 = vaddq_f32(v1, b);
    }
    vst1q_f32(out0, vminnmq_f32(vmaxnmq_f32(v0, vdupq_n_f32(lo)), vdupq_n_f32(hi)));
    vst1q_f32(out1, vminnmq_f32(vmaxnmq_f32(v1, vdupq_n_f32(lo)), vdupq_n_f32(hi)));
#elif defined(AOT_F32_OUT_FPV5)
    if (rs != 4) {
        aot_f32_out4x2_c(acc, rs, bias, out0, out1, lo, hi);
        return;
    }
    __asm__ volatile(AOT_F32_OUT_LOAD_BIAS_ASM "vmaxnm.f32 s0, s0, %[lo]\n\t"
                                               "vmaxnm.f32 s1, s1, %[lo]\n\t"
                                               "vmaxnm.f32 s2, s2, %[lo]\n\t"
                                               "vmaxnm.f32 s3, s3, %[lo]\n\t"
                                               "vmaxnm.f32 s4, s4, %[lo]\n\t"
                                               "vmaxnm.f32 s5, s5, %[lo]\n\t"
                                               "vmaxnm.f32 s6, s6, %[lo]\n\t"
                                               "vmaxnm.f32 s7, s7, %[lo]\n\t"
                                               "vminnm.f32 s0, s0, %[hi]\n\t"
                                               "vminnm.f32 s1, s1, %[hi]\n\t"
                                               "vminnm.f32 s2, s2, %[hi]\n\t"
                                               "vminnm.f32 s3, s3, %[hi]\n\t"
                                               "vminnm.f32 s4, s4, %[hi]\n\t"
                                               "vminnm.f32 s5, s5, %[hi]\n\t"
                                               "vminnm.f32 s6, s6, %[hi]\n\t"
                                               "vminnm.f32 s7, s7, %[hi]\n\t"
                                               "vstm %[o0], {s0-s3}\n\t"
                                               "vstm %[o1], {s4-s7}"
                     :
                     : [acc] "r"(acc), [b] "l"(bias), [o0] "r"(out0), [o1] "r"(out1), [lo] "t"(lo), [hi] "t"(hi)
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
#elif defined(AOT_F32_OUT_FPV4)
    uint32_t t0, t1;
    if ((rs != 4) || (lo > 0.0f) || ((lo < 0.0f) && (lo != -FLT_MAX)) || (hi != FLT_MAX)) {
        aot_f32_out4x2_c(acc, rs, bias, out0, out1, lo, hi);
        return;
    }
    /* lo is 0.0f (ReLU: clear a negative sum) or -FLT_MAX (none: store the sums). */
    __asm__ volatile(AOT_F32_OUT_LOAD_BIAS_ASM "cbnz %[relu], 2f\n\t"
                                               "vstm %[o0], {s0-s3}\n\t"
                                               "vstm %[o1], {s4-s7}\n\t"
                                               "b 3f\n"
                                               "2:\n\t"
                                               "vmov %[t0], %[t1], s0, s1\n\t"
                                               "bic %[t0], %[t0], %[t0], asr #31\n\t"
                                               "bic %[t1], %[t1], %[t1], asr #31\n\t"
                                               "strd %[t0], %[t1], [%[o0]]\n\t"
                                               "vmov %[t0], %[t1], s2, s3\n\t"
                                               "bic %[t0], %[t0], %[t0], asr #31\n\t"
                                               "bic %[t1], %[t1], %[t1], asr #31\n\t"
                                               "strd %[t0], %[t1], [%[o0], #8]\n\t"
                                               "vmov %[t0], %[t1], s4, s5\n\t"
                                               "bic %[t0], %[t0], %[t0], asr #31\n\t"
                                               "bic %[t1], %[t1], %[t1], asr #31\n\t"
                                               "strd %[t0], %[t1], [%[o1]]\n\t"
                                               "vmov %[t0], %[t1], s6, s7\n\t"
                                               "bic %[t0], %[t0], %[t0], asr #31\n\t"
                                               "bic %[t1], %[t1], %[t1], asr #31\n\t"
                                               "strd %[t0], %[t1], [%[o1], #8]\n"
                                               "3:"
                     : [t0] "=&r"(t0), [t1] "=&r"(t1)
                     : [acc] "r"(acc), [b] "l"(bias), [o0] "r"(out0), [o1] "r"(out1), [relu] "l"(lo == 0.0f)
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
#else
    aot_f32_out4x2_c(acc, rs, bias, out0, out1, lo, hi);
#endif
}

#endif /* AOT_F32_OUT_H */
