/* The 3x3 forms of the Helium depthwise convolution (dilation 1, stride_w 1 or 2, channels a multiple of 8, at
 * least two output columns: MobileNet's layers), shared by the entry points of depthwise_conv2d_s8_mve_3x3.c (the row
 * form) and _3x3_image.c (the padded-image form), for layers whose shifts are all right shifts, and _3x3_left.c (both
 * forms, any shift), each in a translation unit of its own: the compiler knows every channel's shift and the layer's
 * geometry and calls the entry point of the form its layer takes, so an image links only the forms its layers use
 * (without -ffunction-sections a whole object links; when one runtime entry point chose among them, every image with a
 * depthwise layer linked all of them, the generic form's 4.7 KB included, on the Cortex-M55 at -O2).  Everything here
 * is static; the units include aot_sched.h first, before this header (tests/compiler/test_crt_codegen.py).  Optimised
 * MVE builds only (the pair loop is assembly): elsewhere the entry points call the generic aot_depthwise_conv2d_s8_mve.
 */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_3X3_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_3X3_H_

#include <stddef.h>

#include "aot/kernels/depthwise_conv2d.h"
#include "mve_s8.h"

#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)

/* The 3x3 form (dilation 1, stride_w 1 or 2, channels a multiple of 8, optimised builds: the pair loop is
 * assembly, which unoptimised builds lack the registers for).  The filter rows of an output row are three row
 * pointers: input rows read in place when no window leaves the image sideways, else rows of a rolling band in
 * scratch (each input row padded with the zero point and copied once, to the slot of its row number mod 3).  Per
 * 8-channel group the nine weight vectors (widened to int16) and the requantization constants split into even and
 * odd channels are first copied to a block on the stack (struct aot_dw3_k), so every later load of them is an
 * immediate offset from one register; then the pixel pairs go in one assembly loop with the taps unrolled, each
 * input vector loaded once per pair (stride 1: the four columns x..x+3 of a row serve both pixels' three taps;
 * stride 2: five columns, the middle one shared).  An odd last pixel runs alone after the pairs, in the same call
 * (its window's three columns per filter row). */
struct aot_dw3_k {
    int16_t offset[8], lo[8], hi[8];                    /* bytes 0.. (VLDRH immediates reach 254) */
    int16_t w[9][8];                                    /* bytes 48.. */
    int32_t bias_e[4], bias_o[4], mult_e[4], mult_o[4]; /* bytes 192.. */
    int32_t right_e[4], right_o[4];                     /* min(shift, 0): bytes 256.. */
    int32_t left_e[4], left_o[4];                       /* max(shift, 0): bytes 288.. */
    int32_t mask_e[4], mask_o[4];                       /* -1 where shift < 0: bytes 320.. */
    int32_t och;                                        /* bytes between output pixels: byte 352 */
};

/* The assembly form of a pair (aot_dw3_pairs_asm): QE, QO += X * the weight vector in W, with q6 the product. */
#define AOT_DW3_MAC_ASM(QE, QO, X, W)                                                                                  \
    "vmullb.s16 q6, " X ", " W "\n\t"                                                                                  \
    "vadd.i32 " QE ", " QE ", q6\n\t"                                                                                  \
    "vmullt.s16 q6, " X ", " W "\n\t"                                                                                  \
    "vadd.i32 " QO ", " QO ", q6\n\t"

/* Filter row at byte W of the block, stride 1: columns 0..3 at A, A + ch, A + 2 ch, A + 3 ch (t the second pointer;
 * A moved on to column 2, the next pair's column 0). */
#define AOT_DW3_ROW1_ASM(A, W)                                                                                         \
    "vldrh.u16 q5, [%[k], #" W "]\n\t"                                                                                 \
    "vldrb.s16 q4, [%[" A "]]\n\t" AOT_DW3_MAC_ASM(                                                                    \
        "q0", "q1", "q4", "q5") "add %[t], %[" A "], %[ch]\n\t"                                                        \
                                "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM(                                            \
                                    "q2", "q3", "q4",                                                                  \
                                    "q5") "vldrh.u16 q5, [%[k], #" W                                                   \
                                          "+16]\n\t" AOT_DW3_MAC_ASM(                                                  \
                                              "q0", "q1", "q4",                                                        \
                                              "q5") "add %[" A "], %[" A "], %[step]\n\t"                              \
                                                    "vldrb.s16 q4, [%[" A "]]\n\t" AOT_DW3_MAC_ASM(                    \
                                                        "q2", "q3", "q4",                                              \
                                                        "q5") "vldrh.u16 q5, [%[k], #" W                               \
                                                              "+32]\n\t" AOT_DW3_MAC_ASM(                              \
                                                                  "q0", "q1", "q4",                                    \
                                                                  "q5") "add %[t], %[t], %[step]\n\t"                  \
                                                                        "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM(    \
                                                                            "q2", "q3", "q4", "q5")

/* The same for the first filter row, its w0 held in q7 for the whole block (stride 1 leaves q7 free). */
#define AOT_DW8_ROW1_Q7(A, W, M)                                                                                       \
    "vldrb.s16 q4, [%[" A "]], #16\n\t" M("q0", "q1", "q4", "q7") "vldrb.s16 q4, [%[" A "], #-8]\n\t" M(               \
        "q2", "q3", "q4",                                                                                              \
        "q7") "vldrb.s16 q5, [%[k], #" W                                                                               \
              "+8]\n\t" AOT_DW8_ADD("q0", "q1", "q4", "q5") "vldrb.s16 q4, [%[" A "]]\n\t" AOT_DW8_ADD(                \
                  "q2", "q3", "q4", "q5") "vldrb.s16 q5, [%[k], #" W                                                   \
                                          "+16]\n\t" AOT_DW8_ADD("q0", "q1", "q4", "q5") "vldrb.s16 q4, [%[" A         \
                                                                                         "], #8]\n\t" AOT_DW8_ADD(     \
                                                                                             "q2", "q3", "q4", "q5")

/* Stride 2: columns 0..4 at A, A + ch, ..., A + 4 ch (A moved on to column 4, the next pair's column 0); w0 stays
 * in q7. */
#define AOT_DW3_ROW2_ASM(A, W)                                                                                         \
    "vldrh.u16 q7, [%[k], #" W "]\n\t"                                                                                 \
    "vldrb.s16 q4, [%[" A "]]\n\t" AOT_DW3_MAC_ASM(                                                                    \
        "q0", "q1", "q4",                                                                                              \
        "q7") "add %[t], %[" A "], %[ch]\n\t"                                                                          \
              "vldrh.u16 q5, [%[k], #" W "+16]\n\t"                                                                    \
              "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM(                                                              \
                  "q0", "q1", "q4",                                                                                    \
                  "q5") "add %[" A "], %[" A "], %[step]\n\t"                                                          \
                        "vldrb.s16 q4, [%[" A "]]\n\t"                                                                 \
                        "vldrh.u16 q5, [%[k], #" W "+32]\n\t" AOT_DW3_MAC_ASM("q0", "q1", "q4", "q5") AOT_DW3_MAC_ASM( \
                            "q2", "q3", "q4", "q7") "vldrh.u16 q7, [%[k], #" W "+16]\n\t"                              \
                                                    "add %[t], %[t], %[step]\n\t"                                      \
                                                    "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM(                        \
                                                        "q2", "q3", "q4", "q7") "add %[" A "], %[" A "], %[step]\n\t"  \
                                                                                "vldrb.s16 q4, [%[" A                  \
                                                                                "]]\n\t" AOT_DW3_MAC_ASM("q2", "q3",   \
                                                                                                         "q4", "q5")

/* VQRDMULH of both pixels' sums by the channels' multipliers (even channels' at k + 224, odd at k + 240) and the -1
 * of negative products (TFLite's rounding of a right shift, the shift itself after): the part of the right-shift
 * requantization the row form's and the image form's outputs share. */
/* clang-format off */
#define AOT_DW_RQ_MUL_ASM \
    "vldrw.32 q5, [%[k], #224]\n\t" \
    "vqrdmulh.s32 q0, q0, q5\n\t" \
    "vqrdmulh.s32 q2, q2, q5\n\t" \
    "vldrw.32 q5, [%[k], #240]\n\t" \
    "vqrdmulh.s32 q1, q1, q5\n\t" \
    "vqrdmulh.s32 q3, q3, q5\n\t" \
    "vshr.s32 q6, q0, #31\n\t" \
    "vqadd.s32 q0, q0, q6\n\t" \
    "vshr.s32 q6, q1, #31\n\t" \
    "vqadd.s32 q1, q1, q6\n\t" \
    "vshr.s32 q6, q2, #31\n\t" \
    "vqadd.s32 q2, q2, q6\n\t" \
    "vshr.s32 q6, q3, #31\n\t" \
    "vqadd.s32 q3, q3, q6\n\t"
/* clang-format on */

/* The requantization of both pixels' sums (q0/q1 even/odd of the first, q2/q3 of the second) when every shift is
 * a right shift (aot_mve_requant_right), then the offset and the clamp, and the two stores. */
#define AOT_DW3_OUT_RIGHT_ASM AOT_DW_RQ_MUL_ASM AOT_DW3_STORE_ASM

/* The same for any shifts (aot_mve_requant: left shift first, the -1 fix-up masked to the right-shifted lanes). */
#define AOT_DW3_OUT_ANY_ASM                                                                                            \
    "vldrw.32 q5, [%[k], #288]\n\t"                                                                                    \
    "vshl.s32 q0, q0, q5\n\t"                                                                                          \
    "vshl.s32 q2, q2, q5\n\t"                                                                                          \
    "vldrw.32 q5, [%[k], #304]\n\t"                                                                                    \
    "vshl.s32 q1, q1, q5\n\t"                                                                                          \
    "vshl.s32 q3, q3, q5\n\t"                                                                                          \
    "vldrw.32 q5, [%[k], #224]\n\t"                                                                                    \
    "vqrdmulh.s32 q0, q0, q5\n\t"                                                                                      \
    "vqrdmulh.s32 q2, q2, q5\n\t"                                                                                      \
    "vldrw.32 q5, [%[k], #240]\n\t"                                                                                    \
    "vqrdmulh.s32 q1, q1, q5\n\t"                                                                                      \
    "vqrdmulh.s32 q3, q3, q5\n\t"                                                                                      \
    "vldrw.32 q7, [%[k], #320]\n\t"                                                                                    \
    "vshr.s32 q6, q0, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q0, q0, q6\n\t"                                                                                         \
    "vshr.s32 q6, q2, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q2, q2, q6\n\t"                                                                                         \
    "vldrw.32 q7, [%[k], #336]\n\t"                                                                                    \
    "vshr.s32 q6, q1, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q1, q1, q6\n\t"                                                                                         \
    "vshr.s32 q6, q3, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q3, q3, q6\n\t" AOT_DW3_STORE_ASM

/* The rounding right shifts (min(shift, 0)), the narrowing to int16, offset, clamp and the stores. */
#define AOT_DW3_STORE_ASM                                                                                              \
    "vldrw.32 q5, [%[k], #256]\n\t"                                                                                    \
    "vrshl.s32 q0, q0, q5\n\t"                                                                                         \
    "vrshl.s32 q2, q2, q5\n\t"                                                                                         \
    "vldrw.32 q5, [%[k], #272]\n\t"                                                                                    \
    "vrshl.s32 q1, q1, q5\n\t"                                                                                         \
    "vrshl.s32 q3, q3, q5\n\t"                                                                                         \
    "vqmovnb.s32 q4, q0\n\t"                                                                                           \
    "vqmovnt.s32 q4, q1\n\t"                                                                                           \
    "vqmovnb.s32 q7, q2\n\t"                                                                                           \
    "vqmovnt.s32 q7, q3\n\t"                                                                                           \
    "vldrh.16 q5, [%[k], #0]\n\t"                                                                                      \
    "vqadd.s16 q4, q4, q5\n\t"                                                                                         \
    "vqadd.s16 q7, q7, q5\n\t"                                                                                         \
    "vldrh.16 q5, [%[k], #16]\n\t"                                                                                     \
    "vmax.s16 q4, q4, q5\n\t"                                                                                          \
    "vmax.s16 q7, q7, q5\n\t"                                                                                          \
    "vldrh.16 q5, [%[k], #32]\n\t"                                                                                     \
    "vmin.s16 q4, q4, q5\n\t"                                                                                          \
    "vmin.s16 q7, q7, q5\n\t"                                                                                          \
    "ldr %[t], [%[k], #352]\n\t"                                                                                       \
    "vstrb.16 q4, [%[o]]\n\t"                                                                                          \
    "add %[o], %[o], %[t]\n\t"                                                                                         \
    "vstrb.16 q7, [%[o]]\n\t"                                                                                          \
    "add %[o], %[o], %[t]\n\t"

/* One pair per iteration, n > 0 of them: the sums start at the bias (q0/q1, copied to q2/q3). */
#define AOT_DW3_PAIRS_ASM(ROW, OUT)                                                                                    \
    __asm__ volatile("1:\n\t"                                                                                          \
                     "vldrw.32 q0, [%[k], #192]\n\t"                                                                   \
                     "vldrw.32 q1, [%[k], #208]\n\t"                                                                   \
                     "vmov q2, q0\n\t"                                                                                 \
                     "vmov q3, q1\n\t" ROW("a0", "48") ROW("a1", "96") ROW("a2", "144") OUT "subs %[n], %[n], #1\n\t"  \
                                                                                            "bne 1b"                   \
                     : [a0] "+l"(a0), [a1] "+l"(a1), [a2] "+l"(a2), [t] "=&l"(t), [o] "+l"(o), [n] "+r"(pairs)         \
                     : [k] "r"(kb), [step] "r"(step), [ch] "r"(ch)                                                     \
                     : "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc")

/* A single pixel (an odd row's last): filter row at A, columns A, A + ch, A + 2 ch, into q0/q1. */
#define AOT_DW3_ROW_ONE_ASM(A, W)                                                                                      \
    "vldrh.u16 q5, [%[k], #" W "]\n\t"                                                                                 \
    "vldrb.s16 q4, [%[" A "]]\n\t" AOT_DW3_MAC_ASM(                                                                    \
        "q0", "q1", "q4", "q5") "add %[t], %[" A "], %[ch]\n\t"                                                        \
                                "vldrh.u16 q5, [%[k], #" W "+16]\n\t"                                                  \
                                "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM(                                            \
                                    "q0", "q1", "q4", "q5") "add %[t], %[t], %[ch]\n\t"                                \
                                                            "vldrh.u16 q5, [%[k], #" W "+32]\n\t"                      \
                                                            "vldrb.s16 q4, [%[t]]\n\t" AOT_DW3_MAC_ASM("q0", "q1",     \
                                                                                                       "q4", "q5")

/* The single pixel's requantization (q0/q1: even/odd channels), right shifts only or any, then its store. */
#define AOT_DW3_ONE_RIGHT_ASM                                                                                          \
    "vldrw.32 q5, [%[k], #224]\n\t"                                                                                    \
    "vqrdmulh.s32 q0, q0, q5\n\t"                                                                                      \
    "vldrw.32 q5, [%[k], #240]\n\t"                                                                                    \
    "vqrdmulh.s32 q1, q1, q5\n\t"                                                                                      \
    "vshr.s32 q6, q0, #31\n\t"                                                                                         \
    "vqadd.s32 q0, q0, q6\n\t"                                                                                         \
    "vshr.s32 q6, q1, #31\n\t"                                                                                         \
    "vqadd.s32 q1, q1, q6\n\t" AOT_DW3_STORE_ONE_ASM

#define AOT_DW3_ONE_ANY_ASM                                                                                            \
    "vldrw.32 q5, [%[k], #288]\n\t"                                                                                    \
    "vshl.s32 q0, q0, q5\n\t"                                                                                          \
    "vldrw.32 q5, [%[k], #304]\n\t"                                                                                    \
    "vshl.s32 q1, q1, q5\n\t"                                                                                          \
    "vldrw.32 q5, [%[k], #224]\n\t"                                                                                    \
    "vqrdmulh.s32 q0, q0, q5\n\t"                                                                                      \
    "vldrw.32 q5, [%[k], #240]\n\t"                                                                                    \
    "vqrdmulh.s32 q1, q1, q5\n\t"                                                                                      \
    "vldrw.32 q7, [%[k], #320]\n\t"                                                                                    \
    "vshr.s32 q6, q0, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q0, q0, q6\n\t"                                                                                         \
    "vldrw.32 q7, [%[k], #336]\n\t"                                                                                    \
    "vshr.s32 q6, q1, #31\n\t"                                                                                         \
    "vand q6, q6, q7\n\t"                                                                                              \
    "vqadd.s32 q1, q1, q6\n\t" AOT_DW3_STORE_ONE_ASM

#define AOT_DW3_STORE_ONE_ASM                                                                                          \
    "vldrw.32 q5, [%[k], #256]\n\t"                                                                                    \
    "vrshl.s32 q0, q0, q5\n\t"                                                                                         \
    "vldrw.32 q5, [%[k], #272]\n\t"                                                                                    \
    "vrshl.s32 q1, q1, q5\n\t"                                                                                         \
    "vqmovnb.s32 q4, q0\n\t"                                                                                           \
    "vqmovnt.s32 q4, q1\n\t"                                                                                           \
    "vldrh.16 q5, [%[k], #0]\n\t"                                                                                      \
    "vqadd.s16 q4, q4, q5\n\t"                                                                                         \
    "vldrh.16 q5, [%[k], #16]\n\t"                                                                                     \
    "vmax.s16 q4, q4, q5\n\t"                                                                                          \
    "vldrh.16 q5, [%[k], #32]\n\t"                                                                                     \
    "vmin.s16 q4, q4, q5\n\t"                                                                                          \
    "vstrb.16 q4, [%[o]]\n\t"

/* One pixel from filter rows a0, a1, a2 (its window's left tap) to o: about 80 instructions, where the pair that
 * recomputed the pixel before it took 145. */
#define AOT_DW3_ONE(OUT)                                                                                               \
    __asm__ volatile("vldrw.32 q0, [%[k], #192]\n\t"                                                                   \
                     "vldrw.32 q1, [%[k], #208]\n\t" AOT_DW3_ROW_ONE_ASM("a0", "48") AOT_DW3_ROW_ONE_ASM("a1", "96")   \
                         AOT_DW3_ROW_ONE_ASM("a2", "144") OUT                                                          \
                     : [t] "=&l"(t)                                                                                    \
                     : [k] "r"(kb), [a0] "l"(a0), [a1] "l"(a1), [a2] "l"(a2), [o] "l"(o), [ch] "r"(ch)                 \
                     : "q0", "q1", "q4", "q5", "q6", "q7", "memory")

/* `pairs` > 0 pixel pairs of 8 channels from filter rows a0, a1, a2 (each at the first window's left tap) to o,
 * then, with `odd`, one more pixel (the pair loop leaves a0..a2 and o at its window and output). */
AOT_ALWAYS_INLINE void aot_dw3_pairs(const struct aot_dw3_k* kb, const int8_t* a0, const int8_t* a1, const int8_t* a2,
                                     int8_t* o, int32_t pairs, int32_t ch, int stride, int right, int odd)
{
    const int32_t step = 2 * ch;
    const int8_t* t;
    if (stride == 1 && right) {
        AOT_DW3_PAIRS_ASM(AOT_DW3_ROW1_ASM, AOT_DW3_OUT_RIGHT_ASM);
    } else if (stride == 1) {
        AOT_DW3_PAIRS_ASM(AOT_DW3_ROW1_ASM, AOT_DW3_OUT_ANY_ASM);
    } else if (right) {
        AOT_DW3_PAIRS_ASM(AOT_DW3_ROW2_ASM, AOT_DW3_OUT_RIGHT_ASM);
    } else {
        AOT_DW3_PAIRS_ASM(AOT_DW3_ROW2_ASM, AOT_DW3_OUT_ANY_ASM);
    }
    if (odd) {
        if (right) {
            AOT_DW3_ONE(AOT_DW3_ONE_RIGHT_ASM);
        } else {
            AOT_DW3_ONE(AOT_DW3_ONE_ANY_ASM);
        }
    }
}

/* A channel group's block of struct aot_dw3_k (every field but the first three), from its weights at %[wp] (%[ch]
 * bytes per tap; moved on) and its bias, multipliers and shifts at %[b], %[m], %[s]: VLD20 / VLD21 split the
 * constants into even and odd channels.  In assembly: GCC 12 addresses each stack slot by a register of its own,
 * about 75 instructions per group where this is 45. */
#define AOT_DW3_W_ASM(OFF)                                                                                             \
    "vldrb.s16 q0, [%[wp]]\n\t"                                                                                        \
    "add %[wp], %[wp], %[ch]\n\t"                                                                                      \
    "vstrh.16 q0, [%[k], #" OFF "]\n\t"
/* One item per line: clang-format reflows this macro differently on every pass. */
/* clang-format off */
#define AOT_DW3_K_ASM \
    AOT_DW3_W_ASM("48") \
    AOT_DW3_W_ASM("64") \
    AOT_DW3_W_ASM("80") \
    AOT_DW3_W_ASM("96") \
    AOT_DW3_W_ASM("112") \
    AOT_DW3_W_ASM("128") \
    AOT_DW3_W_ASM("144") \
    AOT_DW3_W_ASM("160") \
    AOT_DW3_W_ASM("176") \
    AOT_DW3_K_REST_ASM
/* The constants after the weights. */
#define AOT_DW3_K_REST_ASM \
    "vld20.32 {q0, q1}, [%[b]]\n\t" \
    "vld21.32 {q0, q1}, [%[b]]\n\t" \
    "vstrw.32 q0, [%[k], #192]\n\t" \
    "vstrw.32 q1, [%[k], #208]\n\t" \
    "vld20.32 {q0, q1}, [%[m]]\n\t" \
    "vld21.32 {q0, q1}, [%[m]]\n\t" \
    "vstrw.32 q0, [%[k], #224]\n\t" \
    "vstrw.32 q1, [%[k], #240]\n\t" \
    "vld20.32 {q0, q1}, [%[s]]\n\t" \
    "vld21.32 {q0, q1}, [%[s]]\n\t" \
    "vmov.i32 q4, #0\n\t" \
    "vmin.s32 q2, q0, q4\n\t" \
    "vmin.s32 q3, q1, q4\n\t" \
    "vstrw.32 q2, [%[k], #256]\n\t" \
    "vstrw.32 q3, [%[k], #272]\n\t"
/* clang-format on */
/* Any shifts: also max(shift, 0) and the -1 masks (after AOT_DW3_K_ASM: shifts in q0/q1, their minima in q2/q3). */
#define AOT_DW3_K_LEFT_ASM                                                                                             \
    "vmax.s32 q0, q0, q4\n\t"                                                                                          \
    "vmax.s32 q1, q1, q4\n\t"                                                                                          \
    "vstrw.32 q0, [%[k], #288]\n\t"                                                                                    \
    "vstrw.32 q1, [%[k], #304]\n\t"                                                                                    \
    "vshr.s32 q2, q2, #31\n\t"                                                                                         \
    "vshr.s32 q3, q3, #31\n\t"                                                                                         \
    "vstrw.32 q2, [%[k], #320]\n\t"                                                                                    \
    "vstrw.32 q3, [%[k], #336]\n\t"

/* The block k of the 8 channels from c (weights %[ch] bytes per tap; the first three fields set by the caller). */
AOT_ALWAYS_INLINE void aot_dw3_block(struct aot_dw3_k* k, const int8_t* filter, const struct aot_mve_rq* rq, int32_t c,
                                     int32_t ch, int right)
{
    const int8_t* wp = filter + c;
    const int32_t* b = rq->bias + c;
    const int32_t* m = rq->multiplier + c;
    const int32_t* s = rq->shift + c;
    if (right) {
        __asm__ volatile(AOT_DW3_K_ASM
                         : [wp] "+l"(wp)
                         : [k] "r"(k), [ch] "r"(ch), [b] "r"(b), [m] "r"(m), [s] "r"(s)
                         : "q0", "q1", "q2", "q3", "q4", "memory");
    } else {
        __asm__ volatile(AOT_DW3_K_ASM AOT_DW3_K_LEFT_ASM
                         : [wp] "+l"(wp)
                         : [k] "r"(k), [ch] "r"(ch), [b] "r"(b), [m] "r"(m), [s] "r"(s)
                         : "q0", "q1", "q2", "q3", "q4", "memory");
    }
}

AOT_ALWAYS_INLINE void aot_dw3_k_head(struct aot_dw3_k* k, const struct aot_mve_rq* rq, int32_t och)
{
    k->och = och;
    vstrhq_s16(k->offset, vdupq_n_s16((int16_t)rq->out_offset));
    vstrhq_s16(k->lo, vdupq_n_s16((int16_t)rq->act_min));
    vstrhq_s16(k->hi, vdupq_n_s16((int16_t)rq->act_max));
}

/* `count` output rows of n >= 2 pixels of one 8-channel block k from filter rows r0, r1, r2 (at the first window's
 * left tap; ich bytes per input pixel), each moved on by `advance` per output row; output pixels k->och bytes apart,
 * rows out_step apart.  One function for every stride and requantization form (the pair loop chosen per call), so
 * the four loops are not duplicated. */
static __attribute__((noinline, unused)) void aot_dw3_rows(const struct aot_dw3_k* k, const int8_t* r0,
                                                           const int8_t* r1, const int8_t* r2, int32_t advance,
                                                           int8_t* o, int32_t out_step, int32_t count, int32_t n,
                                                           int32_t ich, int stride, int right)
{
    for (; count > 0; count--) {
        aot_dw3_pairs(k, r0, r1, r2, o, n >> 1, ich, stride, right, n & 1);
        r0 += advance;
        r1 += advance;
        r2 += advance;
        o += out_step;
    }
}

/* n >= 2 output pixels of a row from filter rows r0, r1, r2 (at the first window's left tap, channel 0). */
static __attribute__((unused)) void aot_dw3_row(const int8_t* filter, const struct aot_mve_rq* rq, const int8_t* r0,
                                                const int8_t* r1, const int8_t* r2, int8_t* out, int32_t n, int32_t ch,
                                                int stride, int right)
{
    struct aot_dw3_k k;
    int32_t c;
    aot_dw3_k_head(&k, rq, ch);
    for (c = 0; c < ch; c += 8) {
        aot_dw3_block(&k, filter, rq, c, ch, right);
        aot_dw3_rows(&k, r0 + c, r1 + c, r2 + c, 0, out + c, 0, 1, n, ch, stride, right);
    }
}

/* The image form (aot_dw3_image below) for layers whose shifts are all right shifts: the padded image of one
 * 8-channel block, pixels 8 bytes apart, so every tap of a pair is an immediate offset from its filter row's
 * pointer (no pointer arithmetic per tap), and every output row of the block runs in one assembly block (a
 * low-overhead loop over the pairs, an odd last pixel, the row pointers moved on): no per-row set-up in C.  Per
 * pair the first filter row's products start the sums (VMULLB / VMULLT straight into them) and the bias is added
 * before the requantization; the output offset is a scalar VQADD; when the activation range is all of int8 (no
 * ReLU clamp left: MobileNet's layers) the clamp is the saturating narrowing to int8 (VQMOVNB.S16) alone.  About
 * 128 instructions a pair at stride 1 and 131 at stride 2, for 144 MACs. */
/* One item per line: clang-format reflows these macros differently on every pass. */
/* clang-format off */
/* First products of a sum (QE, QO = X * W) and products added to one. */
#define AOT_DW8_SET(QE, QO, X, W) \
    "vmullb.s16 " QE ", " X ", " W "\n\t" \
    "vmullt.s16 " QO ", " X ", " W "\n\t"
#define AOT_DW8_ADD(QE, QO, X, W) AOT_DW3_MAC_ASM(QE, QO, X, W)

/* Stride 1: the pair's columns 0..3 at A - 16 .. A + 8 once the first load has moved A on to the next pair. */
#define AOT_DW8_ROW1(A, W, M) \
    "vldrb.s16 q5, [%[k], #" W "]\n\t" \
    "vldrb.s16 q4, [%[" A "]], #16\n\t" \
    M("q0", "q1", "q4", "q5") \
    "vldrb.s16 q4, [%[" A "], #-8]\n\t" \
    M("q2", "q3", "q4", "q5") \
    "vldrb.s16 q5, [%[k], #" W "+8]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q5") \
    "vldrb.s16 q4, [%[" A "]]\n\t" \
    AOT_DW8_ADD("q2", "q3", "q4", "q5") \
    "vldrb.s16 q5, [%[k], #" W "+16]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q5") \
    "vldrb.s16 q4, [%[" A "], #8]\n\t" \
    AOT_DW8_ADD("q2", "q3", "q4", "q5")

/* Stride 2: columns 0..4 (the second pixel's window starts at column 2) at A - 32 .. A; w0, then w2, in q7. */
#define AOT_DW8_ROW2(A, W, M) \
    "vldrb.s16 q7, [%[k], #" W "]\n\t" \
    "vldrb.s16 q4, [%[" A "]], #32\n\t" \
    M("q0", "q1", "q4", "q7") \
    "vldrb.s16 q5, [%[k], #" W "+8]\n\t" \
    "vldrb.s16 q4, [%[" A "], #-24]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q5") \
    "vldrb.s16 q4, [%[" A "], #-16]\n\t" \
    M("q2", "q3", "q4", "q7") \
    "vldrb.s16 q7, [%[k], #" W "+16]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q7") \
    "vldrb.s16 q4, [%[" A "], #-8]\n\t" \
    AOT_DW8_ADD("q2", "q3", "q4", "q5") \
    "vldrb.s16 q4, [%[" A "]]\n\t" \
    AOT_DW8_ADD("q2", "q3", "q4", "q7")

/* A single pixel (an odd row's last), stride S: A moved on by 8 S (S8) by the first load, columns 1 and 2 then at
 * C1 and C2 from it. */
#define AOT_DW8_ONE(A, W, M, S8, C1, C2) \
    "vldrb.s16 q5, [%[k], #" W "]\n\t" \
    "vldrb.s16 q4, [%[" A "]], #" S8 "\n\t" \
    M("q0", "q1", "q4", "q5") \
    "vldrb.s16 q5, [%[k], #" W "+8]\n\t" \
    "vldrb.s16 q4, [%[" A "], #" C1 "]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q5") \
    "vldrb.s16 q5, [%[k], #" W "+16]\n\t" \
    "vldrb.s16 q4, [%[" A "], #" C2 "]\n\t" \
    AOT_DW8_ADD("q0", "q1", "q4", "q5")
#define AOT_DW8_ONE1(A, W, M) AOT_DW8_ONE(A, W, M, "8", "0", "8")
#define AOT_DW8_ONE2(A, W, M) AOT_DW8_ONE(A, W, M, "16", "-8", "0")

/* The clamp of a pixel's int16 lanes Q: to the activation range (VMAX / VMIN against the bounds in k), or for the
 * whole int8 range the saturating narrowing into Q's bottom bytes, which VSTRB.16 stores. */
#define AOT_DW8_CLAMP(Q) \
    "vldrh.16 q5, [%[k], #16]\n\t" \
    "vmax.s16 " Q ", " Q ", q5\n\t" \
    "vldrh.16 q5, [%[k], #32]\n\t" \
    "vmin.s16 " Q ", " Q ", q5\n\t"
#define AOT_DW8_CLAMP2(P1) \
    "vldrh.16 q5, [%[k], #16]\n\t" \
    "vmax.s16 q4, q4, q5\n\t" \
    "vmax.s16 " P1 ", " P1 ", q5\n\t" \
    "vldrh.16 q5, [%[k], #32]\n\t" \
    "vmin.s16 q4, q4, q5\n\t" \
    "vmin.s16 " P1 ", " P1 ", q5\n\t"
#define AOT_DW8_SAT(Q) "vqmovnb.s16 " Q ", " Q "\n\t"
#define AOT_DW8_SAT2(P1) AOT_DW8_SAT("q4") AOT_DW8_SAT(P1)

/* Bias, VQRDMULH, the -1 of negative values, the rounding right shift, the narrowing (q0/q1: even/odd channels of
 * the first pixel, into q4; q2/q3 of the second, into P1), offset, CLAMP and the stores, for both pixels of a pair. */
#define AOT_DW8_OUT2(P1, CLAMP) \
    "vldrw.32 q5, [%[k], #192]\n\t" \
    "vadd.i32 q0, q0, q5\n\t" \
    "vadd.i32 q2, q2, q5\n\t" \
    "vldrw.32 q5, [%[k], #208]\n\t" \
    "vadd.i32 q1, q1, q5\n\t" \
    "vadd.i32 q3, q3, q5\n\t" \
    AOT_DW_RQ_MUL_ASM \
    "vldrw.32 q5, [%[k], #256]\n\t" \
    "vrshl.s32 q0, q0, q5\n\t" \
    "vrshl.s32 q2, q2, q5\n\t" \
    "vldrw.32 q5, [%[k], #272]\n\t" \
    "vrshl.s32 q1, q1, q5\n\t" \
    "vrshl.s32 q3, q3, q5\n\t" \
    "vqmovnb.s32 q4, q0\n\t" \
    "vqmovnt.s32 q4, q1\n\t" \
    "vqmovnb.s32 " P1 ", q2\n\t" \
    "vqmovnt.s32 " P1 ", q3\n\t" \
    "vqadd.s16 q4, q4, %[off]\n\t" \
    "vqadd.s16 " P1 ", " P1 ", %[off]\n\t" \
    CLAMP(P1) \
    "vstrb.16 q4, [%[o]]\n\t" \
    "add %[o], %[o], %[och]\n\t" \
    "vstrb.16 " P1 ", [%[o]]\n\t" \
    "add %[o], %[o], %[och]\n\t"

/* The same for the single pixel (q0/q1, into q4). */
#define AOT_DW8_OUT1(CLAMP) \
    "vldrw.32 q5, [%[k], #192]\n\t" \
    "vadd.i32 q0, q0, q5\n\t" \
    "vldrw.32 q5, [%[k], #208]\n\t" \
    "vadd.i32 q1, q1, q5\n\t" \
    "vldrw.32 q5, [%[k], #224]\n\t" \
    "vqrdmulh.s32 q0, q0, q5\n\t" \
    "vldrw.32 q5, [%[k], #240]\n\t" \
    "vqrdmulh.s32 q1, q1, q5\n\t" \
    "vshr.s32 q6, q0, #31\n\t" \
    "vqadd.s32 q0, q0, q6\n\t" \
    "vshr.s32 q6, q1, #31\n\t" \
    "vqadd.s32 q1, q1, q6\n\t" \
    "vldrw.32 q5, [%[k], #256]\n\t" \
    "vrshl.s32 q0, q0, q5\n\t" \
    "vldrw.32 q5, [%[k], #272]\n\t" \
    "vrshl.s32 q1, q1, q5\n\t" \
    "vqmovnb.s32 q4, q0\n\t" \
    "vqmovnt.s32 q4, q1\n\t" \
    "vqadd.s16 q4, q4, %[off]\n\t" \
    CLAMP \
    "vstrb.16 q4, [%[o]]\n\t" \
    "add %[o], %[o], %[och]\n\t"

/* Every output row of the block: per row `pairs` pairs (a low-overhead loop), the single pixel when `odd` (out of
 * line, so an even row pays one CBNZ for it), then the row pointers moved on by `adv` (the output pointer is at the
 * next row already). */
#define AOT_DW8_IMAGE_ASM(PRE, ROW0, ROW, ONE, P1, CLAMP2, CLAMP1) \
    __asm__ volatile( \
        PRE \
        "2:\n\t" \
        "dls lr, %[pairs]\n" \
        "1:\n\t" \
        ROW0("a0", "48", AOT_DW8_SET) \
        ROW("a1", "72", AOT_DW8_ADD) \
        ROW("a2", "96", AOT_DW8_ADD) \
        AOT_DW8_OUT2(P1, CLAMP2) \
        "le lr, 1b\n\t" \
        "cbnz %[odd], 4f\n" \
        "3:\n\t" \
        "add %[a0], %[a0], %[adv]\n\t" \
        "add %[a1], %[a1], %[adv]\n\t" \
        "add %[a2], %[a2], %[adv]\n\t" \
        "subs %[rows], %[rows], #1\n\t" \
        "bne 2b\n\t" \
        "b 5f\n" \
        "4:\n\t" \
        ONE("a0", "48", AOT_DW8_SET) \
        ONE("a1", "72", AOT_DW8_ADD) \
        ONE("a2", "96", AOT_DW8_ADD) \
        AOT_DW8_OUT1(CLAMP1) \
        "b 3b\n" \
        "5:" \
        : [a0] "+l"(a0), [a1] "+l"(a1), [a2] "+l"(a2), [o] "+l"(o), [rows] "+r"(rows) \
        : [k] "l"(k), [och] "r"(och), [off] "r"(off), [odd] "l"(odd), [pairs] "r"(pairs), [adv] "r"(adv) \
        : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc")
/* clang-format on */

/* The block k of the 8 channels from c for aot_dw3_image8_rows: as aot_dw3_block, but the nine weight vectors stay
 * int8 (8 bytes each from byte 48, widened by the loop's loads), two taps at a time by the byte gather of the image
 * copy (`two`) when ch + 7 fits its offsets. */
/* clang-format off */
#define AOT_DW8_W2_ASM(OFF) \
    "vldrb.u8 q0, [%[wp], %q[two]]\n\t" \
    "add %[wp], %[wp], %[ch2]\n\t" \
    "vstrb.8 q0, [%[k], #" OFF "]\n\t"
#define AOT_DW8_W1_ASM(OFF) \
    "vldrb.s16 q0, [%[wp]]\n\t" \
    "add %[wp], %[wp], %[ch]\n\t" \
    "vstrb.16 q0, [%[k], #" OFF "]\n\t"
/* clang-format on */
AOT_ALWAYS_INLINE void aot_dw8_block(struct aot_dw3_k* k, const int8_t* filter, const struct aot_mve_rq* rq, int32_t c,
                                     int32_t ch, uint8x16_t two)
{
    const int8_t* wp = filter + c;
    const int32_t* b = rq->bias + c;
    const int32_t* m = rq->multiplier + c;
    const int32_t* s = rq->shift + c;
    const int32_t ch2 = 2 * ch;
    if (ch <= 248) {
        __asm__ volatile(AOT_DW8_W2_ASM("48") AOT_DW8_W2_ASM("64") AOT_DW8_W2_ASM("80") AOT_DW8_W2_ASM("96")
                             AOT_DW8_W1_ASM("112") AOT_DW3_K_REST_ASM
                         : [wp] "+l"(wp)
                         : [k] "l"(k), [ch] "r"(ch), [ch2] "r"(ch2), [two] "w"(two), [b] "r"(b), [m] "r"(m), [s] "r"(s)
                         : "q0", "q1", "q2", "q3", "q4", "memory");
    } else {
        __asm__ volatile(AOT_DW8_W1_ASM("48") AOT_DW8_W1_ASM("56") AOT_DW8_W1_ASM("64") AOT_DW8_W1_ASM("72")
                             AOT_DW8_W1_ASM("80") AOT_DW8_W1_ASM("88") AOT_DW8_W1_ASM("96") AOT_DW8_W1_ASM("104")
                                 AOT_DW8_W1_ASM("112") AOT_DW3_K_REST_ASM
                         : [wp] "+l"(wp)
                         : [k] "l"(k), [ch] "r"(ch), [b] "r"(b), [m] "r"(m), [s] "r"(s)
                         : "q0", "q1", "q2", "q3", "q4", "memory");
    }
}

/* `rows` >= 1 output rows of out_w >= 2 pixels of the block k from the padded image at r0 (row_bytes per row), to
 * o (k->och bytes per pixel); `full`: the activation range is all of int8. */
static __attribute__((noinline, unused)) void aot_dw3_image8_rows(const struct aot_dw3_k* k, const int8_t* r0,
                                                                  int32_t row_bytes, int8_t* o, int32_t rows,
                                                                  int32_t out_w, int32_t stride, int full)
{
    const int8_t* a0 = r0;
    const int8_t* a1 = r0 + row_bytes;
    const int8_t* a2 = r0 + 2 * row_bytes;
    const int32_t och = k->och;
    const int32_t off = (int32_t)k->offset[0];
    const int32_t odd = out_w & 1;
    const int32_t pairs = out_w >> 1;
    const int32_t adv = stride * (row_bytes - out_w * 8);
    /* Stride 1: the first tap's weights stay in q7, the second pixel's outputs go through q6. */
#define AOT_DW8_W0 "vldrb.s16 q7, [%[k], #48]\n\t"
    if (stride == 1 && full) {
        AOT_DW8_IMAGE_ASM(AOT_DW8_W0, AOT_DW8_ROW1_Q7, AOT_DW8_ROW1, AOT_DW8_ONE1, "q6", AOT_DW8_SAT2,
                          AOT_DW8_SAT("q4"));
    } else if (stride == 1) {
        AOT_DW8_IMAGE_ASM(AOT_DW8_W0, AOT_DW8_ROW1_Q7, AOT_DW8_ROW1, AOT_DW8_ONE1, "q6", AOT_DW8_CLAMP2,
                          AOT_DW8_CLAMP("q4"));
    } else if (full) {
        AOT_DW8_IMAGE_ASM("", AOT_DW8_ROW2, AOT_DW8_ROW2, AOT_DW8_ONE2, "q7", AOT_DW8_SAT2, AOT_DW8_SAT("q4"));
    } else {
        AOT_DW8_IMAGE_ASM("", AOT_DW8_ROW2, AOT_DW8_ROW2, AOT_DW8_ONE2, "q7", AOT_DW8_CLAMP2, AOT_DW8_CLAMP("q4"));
    }
#undef AOT_DW8_W0
}

/* n pixels of 8 bytes, ch bytes apart at src, to dst one after another.  Two at a time by a byte gather (offsets
 * 0..7 and ch..ch + 7 in `two`) when ch + 7 fits its 8-bit offsets. */
AOT_ALWAYS_INLINE void aot_dw3_copy8(int8_t* dst, const int8_t* src, int32_t n, int32_t ch, uint8x16_t two)
{
    int32_t i = 0;
    if (ch <= 248) {
        for (; i + 2 <= n; i += 2) {
            vstrbq_u8((uint8_t*)dst, vldrbq_gather_offset_u8((const uint8_t*)src, two));
            src += 2 * ch;
            dst += 16;
        }
    }
    for (; i < n; i++) {
        vstrbq_s16(dst, vldrbq_s16(src));
        src += ch;
        dst += 8;
    }
}

/* `rows` rows of 2 * pairs (pairs >= 1) pixels of 8 bytes into the padded image at dst, as aot_dw3_copy8 with the
 * gather, every row in one assembly block (in C the row change cost more than the row's copy on MobileNet's 6x6
 * images). */
AOT_ALWAYS_INLINE void aot_dw3_copy8_rows(int8_t* dst, const int8_t* src, int32_t rows, int32_t pairs, int32_t ch,
                                          int32_t dst_row, int32_t src_row, uint8x16_t two)
{
    const int32_t ch2 = 2 * ch;
    const int32_t src_adv = src_row - pairs * ch2;
    const int32_t dst_adv = dst_row - pairs * 16;
    __asm__ volatile("1:\n\t"
                     "dls lr, %[pairs]\n"
                     "2:\n\t"
                     "vldrb.u8 q0, [%[src], %q[two]]\n\t"
                     "add %[src], %[src], %[ch2]\n\t"
                     "vstrb.8 q0, [%[dst]], #16\n\t"
                     "le lr, 2b\n\t"
                     "add %[src], %[src], %[sadv]\n\t"
                     "add %[dst], %[dst], %[dadv]\n\t"
                     "subs %[rows], %[rows], #1\n\t"
                     "bne 1b"
                     : [src] "+r"(src), [dst] "+r"(dst), [rows] "+r"(rows)
                     : [pairs] "r"(pairs), [ch2] "r"(ch2), [sadv] "r"(src_adv), [dadv] "r"(dst_adv), [two] "w"(two)
                     : "lr", "q0", "memory", "cc");
}

/* Does the padded image of 8 channels (rows x band_w pixels) fit the 3 rows of all channels the scratch holds? */
AOT_HOT_INLINE int aot_dw3_image_fits(int32_t rows, int32_t channels)
{
    return rows * 8 <= 3 * channels;
}

/* Small padded images (MobileNet's 12x12 stride 2, 6x6 and 3x3 layers): block by block (8 channels), the whole
 * padded image of the block in scratch (rows x band_w pixels of 8 bytes; its border filled with the zero point
 * once), so each block k is set up once per image, not once per output row as in the row form; every row of the
 * block then runs in one call (aot_dw3_image8_rows, or aot_dw3_rows when some shift is a left shift). */
static __attribute__((noinline, unused)) void aot_dw3_image(const int8_t* in_b, int32_t in_h, int32_t in_w, int32_t ch,
                                                            const int8_t* filter, const struct aot_mve_rq* rq,
                                                            int8_t* out, int32_t out_h, int32_t out_w, int32_t stride,
                                                            int32_t pad_top, int32_t pad_left, int8_t zero_point,
                                                            int8_t* scratch, int right)
{
    const int32_t rows = (out_h - 1) * stride + 3;
    const int32_t band_w = (out_w - 1) * stride + 3;
    const int32_t row_bytes = band_w * 8;
    const int32_t y_lo = pad_top, y_hi = pad_top + in_h < rows ? pad_top + in_h : rows;
    const int32_t x_lo = pad_left, x_hi = pad_left + in_w < band_w ? pad_left + in_w : band_w;
    const uint8x16_t lanes = vidupq_n_u8(0, 1);
    const uint8x16_t two = vaddq_m_n_u8(lanes, lanes, (uint8_t)(ch - 8), vcmphiq_n_u8(lanes, 7));
    struct aot_dw3_k k;
    int32_t c, y;
    const int full = rq->act_min == -128 && rq->act_max == 127;
    aot_dw3_k_head(&k, rq, ch);
    aot_mve_fill(scratch, rows * row_bytes, zero_point);
    for (c = 0; c < ch; c += 8) {
        const int8_t* src = in_b + ((y_lo - pad_top) * in_w + x_lo - pad_left) * ch + c;
        int8_t* dst = scratch + y_lo * row_bytes + x_lo * 8;
        if (ch <= 248 && ((x_hi - x_lo) & 1) == 0 && x_hi - x_lo >= 2 && y_hi > y_lo) {
            aot_dw3_copy8_rows(dst, src, y_hi - y_lo, (x_hi - x_lo) >> 1, ch, row_bytes, in_w * ch, two);
        } else {
            for (y = y_lo; y < y_hi; y++) {
                aot_dw3_copy8(dst, src, x_hi - x_lo, ch, two);
                src += in_w * ch;
                dst += row_bytes;
            }
        }
        if (right) {
            aot_dw8_block(&k, filter, rq, c, ch, two);
            aot_dw3_image8_rows(&k, scratch, row_bytes, out + c, out_h, out_w, stride, full);
        } else {
            aot_dw3_block(&k, filter, rq, c, ch, 0);
            aot_dw3_rows(&k, scratch, scratch + row_bytes, scratch + 2 * row_bytes, stride * row_bytes, out + c,
                         out_w * ch, out_h, out_w, 8, stride, 0);
        }
    }
}

/* Input row iy of a rolling band slot: w pixels from input column xs, the zero point wherever that is outside the
 * image (the generic form's band fill, depthwise_conv2d_s8_mve.c, for one filter row). */
static __attribute__((unused)) void aot_dw3_band(int8_t* dst, const int8_t* in_b, int32_t in_h, int32_t in_w,
                                                 int32_t channels, int32_t iy, int32_t xs, int32_t w, int8_t zero_point)
{
    const int32_t row_bytes = w * channels;
    const int32_t lo = -xs < 0 ? 0 : (-xs < w ? -xs : w);
    const int32_t hi0 = in_w - xs;
    const int32_t hi = hi0 > w ? w : (hi0 < lo ? lo : hi0);
    if (iy < 0 || iy >= in_h) {
        aot_mve_fill(dst, row_bytes, zero_point);
    } else {
        aot_mve_fill(dst, lo * channels, zero_point);
        aot_mve_copy(dst + lo * channels, in_b + (iy * in_w + xs + lo) * channels, (hi - lo) * channels);
        aot_mve_fill(dst + hi * channels, (w - hi) * channels, zero_point);
    }
}

/* A layer in the padded-image form (padded sideways, stride_h == stride, the image fitting the scratch:
 * aot_dw3_image_fits); `right` (every shift a right shift) a constant in each unit. */
AOT_ALWAYS_INLINE void aot_dw3_image_layer(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                           int32_t channels, const int8_t* filter, const struct aot_mve_rq* rq,
                                           int8_t* output, int32_t out_h, int32_t out_w, int32_t stride,
                                           int32_t pad_top, int32_t pad_left, int32_t input_zero_point, int8_t* scratch,
                                           int right)
{
    int32_t b;
    for (b = 0; b < batches; b++) {
        aot_dw3_image(input + b * in_h * in_w * channels, in_h, in_w, channels, filter, rq,
                      output + b * out_h * out_w * channels, out_h, out_w, stride, pad_top, pad_left,
                      (int8_t)input_zero_point, scratch, right);
    }
}

/* A layer output row by output row (stride_h any): the filter rows in place when no window leaves the image
 * sideways, else from the rolling band (the scratch holds 3 rows of band_w pixels). */
AOT_ALWAYS_INLINE void aot_dw3_rows_layer(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                          int32_t channels, const int8_t* filter, const struct aot_mve_rq* rq,
                                          int8_t* output, int32_t out_h, int32_t out_w, int32_t stride_h,
                                          int32_t stride, int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                          int8_t* scratch, int right)
{
    const int32_t band_w = (out_w - 1) * stride + 3;
    const int in_place = pad_left == 0 && band_w <= in_w;
    const int32_t row_bytes = band_w * channels;
    int32_t b, oy;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * channels;
        int32_t held[3] = {-1 - in_h, -1 - in_h, -1 - in_h}; /* the input row in each slot (none yet) */
        for (oy = 0; oy < out_h; oy++) {
            const int32_t y0 = oy * stride_h - pad_top;
            const int8_t* rows[3];
            int32_t ky;
            for (ky = 0; ky < 3; ky++) {
                const int32_t iy = y0 + ky;
                if (in_place && iy >= 0 && iy < in_h) {
                    rows[ky] = in_b + iy * in_w * channels;
                } else {
                    const int32_t slot = (iy % 3 + 3) % 3;
                    int8_t* dst = scratch + slot * row_bytes;
                    const int32_t tag = iy < 0 || iy >= in_h ? -1 : iy; /* all padding rows alike */
                    if (held[slot] != tag) {
                        aot_dw3_band(dst, in_b, in_h, in_w, channels, iy, -pad_left, band_w, (int8_t)input_zero_point);
                        held[slot] = tag;
                    }
                    rows[ky] = dst;
                }
            }
            aot_dw3_row(filter, rq, rows[0], rows[1], rows[2], output + (b * out_h + oy) * out_w * channels, out_w,
                        channels, stride, right);
        }
    }
}

/* Whether a 3x3 layer takes the padded-image form (the compiler's choice between the _3x3_image and _3x3 entry
 * points makes the same test: compiler/ops/common/mve_layout.py, dw3_image_form). */
AOT_HOT_INLINE int aot_dw3_image_form(int32_t in_w, int32_t channels, int32_t out_h, int32_t out_w, int32_t stride_h,
                                      int32_t stride, int32_t pad_left)
{
    const int32_t band_w = (out_w - 1) * stride + 3;
    return !(pad_left == 0 && band_w <= in_w) && stride_h == stride &&
           aot_dw3_image_fits((out_h - 1) * stride + 3, channels);
}

#endif

#endif /* AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_3X3_H_ */
