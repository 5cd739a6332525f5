/* The float32 GEMM tile of the fast float convolution and fully connected kernels (conv2d_f32_gemm.c,
 * fully_connected_f32_gemm.c): two input rows of K values times one block of `block` (8 on Helium, 4 elsewhere) output
 * channels, whose weights the compiler stores tap-major ([K][block], compiler/ops/kernels/float_gemm.py; zero-padded to
 * whole blocks; Helium's fully connected layers have a wide layout of their own, fully_connected_f32_gemm.c).
 *
 * Every output is summed exactly as TFLite Micro's reference float kernels order it (tap 0 first, one tap after the
 * other, from 0.0f), each step a fused multiply-add: one rounding per tap instead of the product's and the sum's.
 * That is the only difference from the reference kernels, and it is the same on every core: the Helium loop
 * (VFMA.F32 by a scalar, 8 channels as two vectors), the FPU loop of the Cortex-M4F/M7/M33 (VLDM of 4 taps of each
 * row and of 16 weights, VFMA.F32), and the C fallback (fmaf, correctly rounded as VFMA is) that the host builds run.
 *
 * Why assembly: the loops reach their instruction counts only with multi-register loads (VLDM on the FPU, LDRD of
 * two scalar taps on Helium), which GCC 12 does not form from C at -O2 or -Os (one VLDR per float: 1.75
 * instructions per MAC for a 2 x 4 tile on the M4F, against 1.16 here).
 */
#ifndef AOT_GEMM_F32_TILE_H
#define AOT_GEMM_F32_TILE_H

#include <math.h>
#include <stdint.h>
#include <stddef.h>

#include "f32_out.h"

/* The block width the core's loop is written for (the compiler lays the weights out for its target's width; a
 * build for another core, e.g. the host running a Cortex-M55 model's code, takes the C loop at any width). */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define AOT_F32_MVE          1
#define AOT_F32_NATIVE_BLOCK 8
#elif defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA) && !defined(__ARM_FEATURE_MVE)
#define AOT_F32_VFP          1
#define AOT_F32_NATIVE_BLOCK 4
#else
#define AOT_F32_NATIVE_BLOCK 0
#endif

/* The widest block: the sums of a tile take 2 * AOT_F32_MAX_BLOCK floats. */
#define AOT_F32_MAX_BLOCK 8

/* The sums a tile starts from when it is the first of its outputs. */
static const float aot_f32_zeros[2 * AOT_F32_MAX_BLOCK] = {0};

/* The C form of the tile, any block width: what the loops below compute. */
static void aot_f32_tile_c(const float* a0, const float* a1, const float* w, int32_t n, int32_t block,
                           const float* init, float* acc)
{
    int32_t k, j;
    for (j = 0; j < 2 * block; j++) {
        acc[j] = init[j];
    }
    for (k = 0; k < n; k++) {
        for (j = 0; j < block; j++) {
            acc[j] = fmaf(a0[k], w[j], acc[j]);
            acc[block + j] = fmaf(a1[k], w[j], acc[block + j]);
        }
        w += block;
    }
}

#if defined(AOT_F32_MVE)
/* Helium's pair tile loop (WLS/LE on lr, already set up to skip to 2 when there is no pair of taps): per pass two
 * taps of both rows (LDRD into %[x0]/%[x1] and %[y0]/%[y1]) times 8 channels of weights (q4-q7), summed into q0, q1
 * (row 0) and q2, q3 (row 1); aot_f32_tile's loop, which conv2d_f32_gemm.c's tiles with their outputs share. */
#define AOT_F32_MVE_PAIR_LOOP_ASM                                                                                      \
    "1:\n\t"                                                                                                           \
    "ldrd %[x0], %[x1], [%[a0]], #8\n\t"                                                                               \
    "ldrd %[y0], %[y1], [%[a1]], #8\n\t"                                                                               \
    "vldrw.32 q4, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q5, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q4, %[y0]\n\t"                                                                                       \
    "vfma.f32 q3, q5, %[y0]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x1]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x1]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[y1]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[y1]\n\t"                                                                                       \
    "le lr, 1b\n"                                                                                                      \
    "2:\n\t"
/* After the loop and a test that sets Z when there is no odd last tap: that tap of both rows into the sums, then
 * the label 3. */
#define AOT_F32_MVE_ODD_TAP_ASM                                                                                        \
    "beq 3f\n\t"                                                                                                       \
    "ldr %[x0], [%[a0]]\n\t"                                                                                           \
    "ldr %[y0], [%[a1]]\n\t"                                                                                           \
    "vldrw.32 q4, [%[w]]\n\t"                                                                                          \
    "vldrw.32 q5, [%[w], #16]\n\t"                                                                                     \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q4, %[y0]\n\t"                                                                                       \
    "vfma.f32 q3, q5, %[y0]\n"                                                                                         \
    "3:\n\t"
#endif

#if defined(AOT_F32_VFP)
/* The FPU tile's loops (operands %[a0], %[a1], %[w], %[q] quads and %[r] single taps, all advanced), from the sums in
 * s0-s7 to the sums in s0-s7 at the label 4: aot_f32_tile's body, which conv2d_f32_gemm.c's tile with its outputs
 * shares. */
#define AOT_F32_VFP_TILE_ASM                                                                                           \
    "cmp %[q], #0\n\t"                                                                                                 \
    "beq 2f\n"                                                                                                         \
    "1:\n\t"                                                                                                           \
    "vldm %[a0]!, {s8-s11}\n\t"                                                                                        \
    "vldm %[a1]!, {s12-s15}\n\t"                                                                                       \
    "vldm %[w]!, {s16-s31}\n\t"                                                                                        \
    "vfma.f32 s0, s8, s16\n\t"                                                                                         \
    "vfma.f32 s1, s8, s17\n\t"                                                                                         \
    "vfma.f32 s2, s8, s18\n\t"                                                                                         \
    "vfma.f32 s3, s8, s19\n\t"                                                                                         \
    "vfma.f32 s4, s12, s16\n\t"                                                                                        \
    "vfma.f32 s5, s12, s17\n\t"                                                                                        \
    "vfma.f32 s6, s12, s18\n\t"                                                                                        \
    "vfma.f32 s7, s12, s19\n\t"                                                                                        \
    "vfma.f32 s0, s9, s20\n\t"                                                                                         \
    "vfma.f32 s1, s9, s21\n\t"                                                                                         \
    "vfma.f32 s2, s9, s22\n\t"                                                                                         \
    "vfma.f32 s3, s9, s23\n\t"                                                                                         \
    "vfma.f32 s4, s13, s20\n\t"                                                                                        \
    "vfma.f32 s5, s13, s21\n\t"                                                                                        \
    "vfma.f32 s6, s13, s22\n\t"                                                                                        \
    "vfma.f32 s7, s13, s23\n\t"                                                                                        \
    "vfma.f32 s0, s10, s24\n\t"                                                                                        \
    "vfma.f32 s1, s10, s25\n\t"                                                                                        \
    "vfma.f32 s2, s10, s26\n\t"                                                                                        \
    "vfma.f32 s3, s10, s27\n\t"                                                                                        \
    "vfma.f32 s4, s14, s24\n\t"                                                                                        \
    "vfma.f32 s5, s14, s25\n\t"                                                                                        \
    "vfma.f32 s6, s14, s26\n\t"                                                                                        \
    "vfma.f32 s7, s14, s27\n\t"                                                                                        \
    "vfma.f32 s0, s11, s28\n\t"                                                                                        \
    "vfma.f32 s1, s11, s29\n\t"                                                                                        \
    "vfma.f32 s2, s11, s30\n\t"                                                                                        \
    "vfma.f32 s3, s11, s31\n\t"                                                                                        \
    "vfma.f32 s4, s15, s28\n\t"                                                                                        \
    "vfma.f32 s5, s15, s29\n\t"                                                                                        \
    "vfma.f32 s6, s15, s30\n\t"                                                                                        \
    "vfma.f32 s7, s15, s31\n\t"                                                                                        \
    "subs %[q], %[q], #1\n\t"                                                                                          \
    "bne 1b\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "cmp %[r], #0\n\t"                                                                                                 \
    "beq 4f\n"                                                                                                         \
    "3:\n\t"                                                                                                           \
    "vldm %[a0]!, {s8}\n\t"                                                                                            \
    "vldm %[a1]!, {s12}\n\t"                                                                                           \
    "vldm %[w]!, {s16-s19}\n\t"                                                                                        \
    "vfma.f32 s0, s8, s16\n\t"                                                                                         \
    "vfma.f32 s1, s8, s17\n\t"                                                                                         \
    "vfma.f32 s2, s8, s18\n\t"                                                                                         \
    "vfma.f32 s3, s8, s19\n\t"                                                                                         \
    "vfma.f32 s4, s12, s16\n\t"                                                                                        \
    "vfma.f32 s5, s12, s17\n\t"                                                                                        \
    "vfma.f32 s6, s12, s18\n\t"                                                                                        \
    "vfma.f32 s7, s12, s19\n\t"                                                                                        \
    "subs %[r], %[r], #1\n\t"                                                                                          \
    "bne 3b\n"                                                                                                         \
    "4:\n\t"

#endif

/* acc[r * block + j] = init[r * block + j] + the sum over k < n of a_r[k] * w[k * block + j], r = 0, 1, one tap
 * after the other (init: aot_f32_zeros, or acc to go on summing). */
static void aot_f32_tile(const float* a0, const float* a1, const float* w, int32_t n, int32_t block, const float* init,
                         float* acc)
{
    if (block != AOT_F32_NATIVE_BLOCK) {
        aot_f32_tile_c(a0, a1, w, n, block, init, acc);
        return;
    }
    {
#if defined(AOT_F32_VFP)
        /* s0-s7: the 8 sums; s8-s11, s12-s15: 4 taps of each row; s16-s31: their 16 weights. */
        int32_t quads = n >> 2, rest = n & 3;
        __asm__ volatile("vldm %[init], {s0-s7}\n\t" AOT_F32_VFP_TILE_ASM "vstm %[acc], {s0-s7}"
                         : [a0] "+r"(a0), [a1] "+r"(a1), [w] "+r"(w), [q] "+r"(quads), [r] "+r"(rest)
                         : [acc] "r"(acc), [init] "r"(init)
                         : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13",
                           "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26",
                           "s27", "s28", "s29", "s30", "s31", "memory", "cc");
#elif defined(AOT_F32_MVE)
        /* q0, q1: row 0's 8 sums; q2, q3: row 1's; q4-q7: the weights of two taps; scalar taps in core registers;
         * a low-overhead loop (WLS/LE): 15 instructions per 32 multiply-adds. */
        int32_t pairs = n >> 1, rest = n & 1;
        uint32_t x0, x1, y0, y1;
        __asm__ volatile(
            "vldrw.32 q0, [%[init]]\n\t"
            "vldrw.32 q1, [%[init], #16]\n\t"
            "vldrw.32 q2, [%[init], #32]\n\t"
            "vldrw.32 q3, [%[init], #48]\n\t"
            "wls lr, %[p], 2f\n" AOT_F32_MVE_PAIR_LOOP_ASM "cmp %[r], #0\n\t" AOT_F32_MVE_ODD_TAP_ASM
            "vstrw.32 q0, [%[acc]]\n\t"
            "vstrw.32 q1, [%[acc], #16]\n\t"
            "vstrw.32 q2, [%[acc], #32]\n\t"
            "vstrw.32 q3, [%[acc], #48]"
            : [a0] "+r"(a0), [a1] "+r"(a1), [w] "+r"(w), [x0] "=&r"(x0), [x1] "=&r"(x1), [y0] "=&r"(y0), [y1] "=&r"(y1)
            : [acc] "r"(acc), [init] "r"(init), [r] "r"(rest), [p] "r"(pairs)
            : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
#endif
    }
}

/* The tile's outputs: `count` <= block channels of each of `rows` (1 or 2) rows, plus the bias (after the sum, as
 * the reference kernels add it), clamped, to out0 and out1 (out1 == out0 for one row, whose sums are then in both
 * rows of acc).  A whole block of the core's width takes the registers' form of f32_out.h. */
static void aot_f32_tile_store(const float* acc, int32_t block, const float* bias, int32_t count, int32_t rows,
                               float* out0, float* out1, float act_min, float act_max)
{
    int32_t r, j;
#if AOT_F32_NATIVE_BLOCK > 0
    if (count == block && block == AOT_F32_NATIVE_BLOCK) {
        aot_f32_out4x2(acc, block, bias, out0, out1, act_min, act_max);
        if (block == 8) {
            aot_f32_out4x2(acc + 4, block, bias == NULL ? NULL : bias + 4, out0 + 4, out1 + 4, act_min, act_max);
        }
        return;
    }
#endif
    for (r = 0; r < rows; r++) {
        float* o = r == 0 ? out0 : out1;
        for (j = 0; j < count; j++) {
            float v = acc[r * block + j];
            if (bias != NULL) {
                v += bias[j];
            }
            o[j] = aot_f32_clamp(v, act_min, act_max);
        }
    }
}

#endif /* AOT_GEMM_F32_TILE_H */
