/* Fast float32 fully connected layer: pairs of batch rows times blocks of output units through the GEMM tile of
 * gemm_f32_tile.h (the FPU's VFMA, or C); a single row (a batch of one, or the last of an odd batch) takes the
 * one-row tile, which loads each weight once for its one multiply-add, on the FPU cores every whole block of the row
 * in one asm loop with its outputs.  Helium's layout is the wide one (AOT_F32_WIDE_BLOCK): each row, whatever the
 * batch, walked once per block of up to 16 units, every block of the row in one asm pass with its outputs.
 * The body of two units: fully_connected_f32_gemm.c (aot_fully_connected_f32_gemm, every batch) and
 * fully_connected_f32_gemm_row.c (aot_fully_connected_f32_gemm_row, one row at a time, without
 * the pair tile's code, 440-550 B less on the FPU cores; the compiler calls it for a batch of one). */
#ifndef AOT_FULLY_CONNECTED_F32_GEMM_BODY_H
#define AOT_FULLY_CONNECTED_F32_GEMM_BODY_H
#include "aot_sched.h"

#include <float.h>
#include <stddef.h>

#include "aot/kernels/fully_connected.h"
#include "gemm_f32_tile.h"

/* The one-row tile's loop from label 1 (q, n / 8, not 0) or 2 (s0-s3 the sums, s4-s11 8 taps, s16-s31 16 weights,
 * twice a pass: 37 instructions per 32 MACs; the last r = n % 8 taps one at a time) to label 4; operands a, w, q, r
 */
#if defined(AOT_F32_VFP)
#define AOT_F32_VFP_ROW_LOOP_ASM                                                                                       \
    "1:\n\t"                                                                                                           \
    "vldm %[a]!, {s4-s11}\n\t"                                                                                         \
    "vldm %[w]!, {s16-s31}\n\t"                                                                                        \
    "vfma.f32 s0, s4, s16\n\t"                                                                                         \
    "vfma.f32 s1, s4, s17\n\t"                                                                                         \
    "vfma.f32 s2, s4, s18\n\t"                                                                                         \
    "vfma.f32 s3, s4, s19\n\t"                                                                                         \
    "vfma.f32 s0, s5, s20\n\t"                                                                                         \
    "vfma.f32 s1, s5, s21\n\t"                                                                                         \
    "vfma.f32 s2, s5, s22\n\t"                                                                                         \
    "vfma.f32 s3, s5, s23\n\t"                                                                                         \
    "vfma.f32 s0, s6, s24\n\t"                                                                                         \
    "vfma.f32 s1, s6, s25\n\t"                                                                                         \
    "vfma.f32 s2, s6, s26\n\t"                                                                                         \
    "vfma.f32 s3, s6, s27\n\t"                                                                                         \
    "vfma.f32 s0, s7, s28\n\t"                                                                                         \
    "vfma.f32 s1, s7, s29\n\t"                                                                                         \
    "vfma.f32 s2, s7, s30\n\t"                                                                                         \
    "vfma.f32 s3, s7, s31\n\t"                                                                                         \
    "vldm %[w]!, {s16-s31}\n\t"                                                                                        \
    "vfma.f32 s0, s8, s16\n\t"                                                                                         \
    "vfma.f32 s1, s8, s17\n\t"                                                                                         \
    "vfma.f32 s2, s8, s18\n\t"                                                                                         \
    "vfma.f32 s3, s8, s19\n\t"                                                                                         \
    "vfma.f32 s0, s9, s20\n\t"                                                                                         \
    "vfma.f32 s1, s9, s21\n\t"                                                                                         \
    "vfma.f32 s2, s9, s22\n\t"                                                                                         \
    "vfma.f32 s3, s9, s23\n\t"                                                                                         \
    "vfma.f32 s0, s10, s24\n\t"                                                                                        \
    "vfma.f32 s1, s10, s25\n\t"                                                                                        \
    "vfma.f32 s2, s10, s26\n\t"                                                                                        \
    "vfma.f32 s3, s10, s27\n\t"                                                                                        \
    "vfma.f32 s0, s11, s28\n\t"                                                                                        \
    "vfma.f32 s1, s11, s29\n\t"                                                                                        \
    "vfma.f32 s2, s11, s30\n\t"                                                                                        \
    "vfma.f32 s3, s11, s31\n\t"                                                                                        \
    "subs %[q], %[q], #1\n\t"                                                                                          \
    "bne 1b\n"                                                                                                         \
    "2:\n\t"                                                                                                           \
    "cmp %[r], #0\n\t"                                                                                                 \
    "beq 4f\n"                                                                                                         \
    "3:\n\t"                                                                                                           \
    "vldm %[a]!, {s8}\n\t"                                                                                             \
    "vldm %[w]!, {s16-s19}\n\t"                                                                                        \
    "vfma.f32 s0, s8, s16\n\t"                                                                                         \
    "vfma.f32 s1, s8, s17\n\t"                                                                                         \
    "vfma.f32 s2, s8, s18\n\t"                                                                                         \
    "vfma.f32 s3, s8, s19\n\t"                                                                                         \
    "subs %[r], %[r], #1\n\t"                                                                                          \
    "bne 3b\n"
#endif

/* One row alone, a batch of one: acc[j] = acc[block + j] = the sum over k < n of a[k] * w[k * block + j], one tap
 * after the other from 0.0f (both rows of acc, the form aot_f32_tile_store takes for one row).  Every weight serves
 * one multiply-add: the pair tile would run the row twice. */
static void aot_f32_row_tile(const float* a, const float* w, int32_t n, int32_t block, float* acc)
{
    if (block != AOT_F32_NATIVE_BLOCK) {
        aot_f32_tile_c(a, a, w, n, block, aot_f32_zeros, acc);
        return;
    }
    {
#if defined(AOT_F32_VFP)
        /* s0-s3: the 4 sums; s4-s11: 8 taps (one VLDM); s16-s31: 16 weights, twice a pass: 37 instructions per 32
         * MACs (4 taps a pass: 20 per 16). */
        int32_t octs = n >> 3, rest = n & 7;
        __asm__ volatile("vldm %[z], {s0-s3}\n\t"
                         "cmp %[q], #0\n\t"
                         "beq 2f\n" AOT_F32_VFP_ROW_LOOP_ASM "4:\n\t"
                         "vstm %[acc], {s0-s3}\n\t"
                         "vstr s0, [%[acc], #16]\n\t"
                         "vstr s1, [%[acc], #20]\n\t"
                         "vstr s2, [%[acc], #24]\n\t"
                         "vstr s3, [%[acc], #28]"
                         : [a] "+r"(a), [w] "+r"(w), [q] "+r"(octs), [r] "+r"(rest)
                         : [acc] "r"(acc), [z] "r"(aot_f32_zeros)
                         : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s16", "s17",
                           "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30",
                           "s31", "memory", "cc");
#else
        /* Helium at block 8 (its compiler layout is the wide one below): the C form. */
        aot_f32_tile_c(a, a, w, n, block, aot_f32_zeros, acc);
#endif
    }
}

#if defined(AOT_F32_VFP)
/* A batch of one, nb whole blocks of 4 units: the one-row tile of each block with its outputs in the same asm pass
 * (the bias if any, FPv5's VMAXNM/VMINNM clamp; on FPv4 only the range "none", which stores the sums), as
 * f32_out.h's forms, the blocks in one loop: no sums through memory, no second row, no call per block. */
static void aot_f32_row_out(const float* a0, const float* w, int32_t n, const float* bias, float* out, float lo,
                            float hi, int32_t nb)
{
    const float* a;
    int32_t octs, rest;
    /* The sums' start and the range: one pointer, the core registers being nearly all taken. */
    const float k[6] = {0.0f, 0.0f, 0.0f, 0.0f, lo, hi};
    __asm__ volatile(
#if defined(AOT_F32_OUT_FPV5)
        "add %[a], %[k], #16\n\t"
        "vldm %[a], {s12-s13}\n"
#endif

        "6:\n\t"
        "mov %[a], %[a0]\n\t"
        "lsrs %[q], %[n], #3\n\t" /* flags for the beq below */
        "and %[r], %[n], #7\n\t"
        "vldm %[k], {s0-s3}\n\t"
        "beq 2f\n" AOT_F32_VFP_ROW_LOOP_ASM "4:\n\t"
        "cmp %[b], #0\n\t"
        "beq 5f\n\t"
        "vldm %[b]!, {s4-s7}\n\t"
        "vadd.f32 s0, s0, s4\n\t"
        "vadd.f32 s1, s1, s5\n\t"
        "vadd.f32 s2, s2, s6\n\t"
        "vadd.f32 s3, s3, s7\n"
        "5:\n\t"
#if defined(AOT_F32_OUT_FPV5)
        "vmaxnm.f32 s0, s0, s12\n\t"
        "vmaxnm.f32 s1, s1, s12\n\t"
        "vmaxnm.f32 s2, s2, s12\n\t"
        "vmaxnm.f32 s3, s3, s12\n\t"
        "vminnm.f32 s0, s0, s13\n\t"
        "vminnm.f32 s1, s1, s13\n\t"
        "vminnm.f32 s2, s2, s13\n\t"
        "vminnm.f32 s3, s3, s13\n\t"
#endif
        "vstm %[o]!, {s0-s3}\n\t"
        "subs %[nb], %[nb], #1\n\t"
        "bne 6b"
        : [a] "=&r"(a), [q] "=&r"(octs), [r] "=&r"(rest), [w] "+r"(w), [b] "+r"(bias), [o] "+r"(out), [nb] "+r"(nb)
        : [a0] "r"(a0), [n] "r"(n), [k] "r"(k)
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s16", "s17", "s18",
          "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31", "memory", "cc");
}
#endif

#if defined(AOT_F32_VFP)
/* A batch of one, a last block of 1 or 2 units (the others the padding's zeros): acc[0..1] = the two sums, 8 taps a
 * pass with the multiply-adds of those two units only (21 instructions per 16 MACs; the 4-unit loop would do 32 for
 * them). */
static void aot_f32_row_two(const float* a, const float* w, int32_t n, float* acc)
{
    int32_t octs = n >> 3, rest = n & 7;
    __asm__ volatile("vldm %[z], {s0-s1}\n\t"
                     "cmp %[q], #0\n\t"
                     "beq 2f\n"
                     "1:\n\t"
                     "vldm %[a]!, {s4-s11}\n\t"
                     "vldm %[w]!, {s16-s31}\n\t"
                     "vfma.f32 s0, s4, s16\n\t"
                     "vfma.f32 s1, s4, s17\n\t"
                     "vfma.f32 s0, s5, s20\n\t"
                     "vfma.f32 s1, s5, s21\n\t"
                     "vfma.f32 s0, s6, s24\n\t"
                     "vfma.f32 s1, s6, s25\n\t"
                     "vfma.f32 s0, s7, s28\n\t"
                     "vfma.f32 s1, s7, s29\n\t"
                     "vldm %[w]!, {s16-s31}\n\t"
                     "vfma.f32 s0, s8, s16\n\t"
                     "vfma.f32 s1, s8, s17\n\t"
                     "vfma.f32 s0, s9, s20\n\t"
                     "vfma.f32 s1, s9, s21\n\t"
                     "vfma.f32 s0, s10, s24\n\t"
                     "vfma.f32 s1, s10, s25\n\t"
                     "vfma.f32 s0, s11, s28\n\t"
                     "vfma.f32 s1, s11, s29\n\t"
                     "subs %[q], %[q], #1\n\t"
                     "bne 1b\n"
                     "2:\n\t"
                     "cmp %[r], #0\n\t"
                     "beq 4f\n"
                     "3:\n\t"
                     "vldm %[a]!, {s8}\n\t"
                     "vldm %[w]!, {s16-s19}\n\t"
                     "vfma.f32 s0, s8, s16\n\t"
                     "vfma.f32 s1, s8, s17\n\t"
                     "subs %[r], %[r], #1\n\t"
                     "bne 3b\n"
                     "4:\n\t"
                     "vstm %[acc], {s0-s1}"
                     : [a] "+r"(a), [w] "+r"(w), [q] "+r"(octs), [r] "+r"(rest)
                     : [acc] "r"(acc), [z] "r"(aot_f32_zeros)
                     : "s0", "s1", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s16", "s17", "s18", "s19", "s20",
                       "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31", "memory", "cc");
}
#endif

/* The wide layout (block AOT_F32_WIDE_BLOCK, Helium's): units in blocks of 16, the last of the remaining units
 * rounded up to 4 (zero-padded), each block [accum_depth][width], and the bias (if any) zero-padded to whole vectors
 * (a multiple of 4 units): one input's weights of a block are 1 to 4 vectors in a row, so the row is walked once per
 * block with the input a scalar in a core register. */
#define AOT_F32_WIDE_BLOCK 16

/* The FPU cores' builds take no wide layout (the compiler writes theirs in blocks of 4); Helium's and the host's
 * (which runs a Cortex-M55 model's code in C) do. */
#if !defined(AOT_F32_VFP)
/* What the row's pass reads and keeps beside its registers: the block's bias (NULL: none; whole vectors) and
 * outputs (both advanced by a block), the units left (counted down by a block), the row's length, 16 zeros, the
 * range, the row.  Byte offsets as the asm reads them. */
typedef struct {
    const float* bias;  /* 0 */
    float* out;         /* 4 */
    int32_t units;      /* 8 */
    int32_t n;          /* 12 */
    const float* zeros; /* 16 */
    float lo;           /* 20 */
    float hi;           /* 24 */
    const float* a;     /* 28 */
} aot_f32_wide_t;

/* Helium's asm takes 11 core registers besides lr: not at -O0, whose frame pointer leaves too few (the C form). */
#if defined(AOT_F32_MVE) && defined(__OPTIMIZE__)
#define AOT_FCW_MVE 1
/* 8 inputs (core registers x0-x7, one LDM) of the wide row loop, V = width / 4 vectors an input: the 8 inputs'
 * weights are 2V vectors in a row, loaded 4 at a time (VLDM into q4-q7) whatever the width, each vector a VFMA into
 * its unit's sums' vector (q0 to q(V-1)) by its input: per 8 inputs 1 + 2V + 8V instructions (KWS's 12 units: 31 per
 * 96 MACs), each sum's taps in order. */
#define AOT_FCW_PASS1                                                                                                  \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q0, q5, %[x1]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q0, q7, %[x3]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x4]\n\t"                                                                                       \
    "vfma.f32 q0, q5, %[x5]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x6]\n\t"                                                                                       \
    "vfma.f32 q0, q7, %[x7]\n\t"
#define AOT_FCW_PASS2                                                                                                  \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x0]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x1]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x1]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x2]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x2]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x3]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x4]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x4]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x5]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x5]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x6]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x6]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x7]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x7]\n\t"
#define AOT_FCW_PASS3                                                                                                  \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x0]\n\t"                                                                                       \
    "vfma.f32 q0, q7, %[x1]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q1, q4, %[x1]\n\t"                                                                                       \
    "vfma.f32 q2, q5, %[x1]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x2]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q2, q4, %[x2]\n\t"                                                                                       \
    "vfma.f32 q0, q5, %[x3]\n\t"                                                                                       \
    "vfma.f32 q1, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q2, q7, %[x3]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x4]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x4]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x4]\n\t"                                                                                       \
    "vfma.f32 q0, q7, %[x5]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q1, q4, %[x5]\n\t"                                                                                       \
    "vfma.f32 q2, q5, %[x5]\n\t"                                                                                       \
    "vfma.f32 q0, q6, %[x6]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x6]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q2, q4, %[x6]\n\t"                                                                                       \
    "vfma.f32 q0, q5, %[x7]\n\t"                                                                                       \
    "vfma.f32 q1, q6, %[x7]\n\t"                                                                                       \
    "vfma.f32 q2, q7, %[x7]\n\t"
#define AOT_FCW_PASS4                                                                                                  \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x0]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x0]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x1]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x1]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x1]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x1]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x2]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x2]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x2]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x3]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x3]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x3]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x4]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x4]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x4]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x4]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x5]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x5]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x5]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x5]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x6]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x6]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x6]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x6]\n\t"                                                                                       \
    "vldm %[w]!, {d8-d15}\n\t"                                                                                         \
    "vfma.f32 q0, q4, %[x7]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x7]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x7]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x7]\n\t"
/* One input (x0) after the passes: its V vectors by one VLDM into q4-q7, a VFMA into each sums' vector. */
#define AOT_FCW_LD1  "vldm %[w]!, {d8-d9}\n\t"
#define AOT_FCW_LD2  "vldm %[w]!, {d8-d11}\n\t"
#define AOT_FCW_LD3  "vldm %[w]!, {d8-d13}\n\t"
#define AOT_FCW_LD4  "vldm %[w]!, {d8-d15}\n\t"
#define AOT_FCW_FMA1 "vfma.f32 q0, q4, %[x0]\n\t"
#define AOT_FCW_FMA2 AOT_FCW_FMA1 "vfma.f32 q1, q5, %[x0]\n\t"
#define AOT_FCW_FMA3 AOT_FCW_FMA2 "vfma.f32 q2, q6, %[x0]\n\t"
#define AOT_FCW_FMA4 AOT_FCW_FMA3 "vfma.f32 q3, q7, %[x0]\n\t"
/* The bias (whole vectors into q4-q7), the clamp (the bounds in q4, q5) and the stores of V vectors, the last one's
 * units only (VCTP before: the units left less 4(V - 1), all four lanes from 4 on). */
#define AOT_FCW_BIAS1  "vldm %[x0], {d8-d9}\n\t"
#define AOT_FCW_BIAS2  "vldm %[x0], {d8-d11}\n\t"
#define AOT_FCW_BIAS3  "vldm %[x0], {d8-d13}\n\t"
#define AOT_FCW_BIAS4  "vldm %[x0], {d8-d15}\n\t"
#define AOT_FCW_ADD1   "vadd.f32 q0, q0, q4\n\t"
#define AOT_FCW_ADD2   AOT_FCW_ADD1 "vadd.f32 q1, q1, q5\n\t"
#define AOT_FCW_ADD3   AOT_FCW_ADD2 "vadd.f32 q2, q2, q6\n\t"
#define AOT_FCW_ADD4   AOT_FCW_ADD3 "vadd.f32 q3, q3, q7\n\t"
#define AOT_FCW_CLAMP1 "vmaxnm.f32 q0, q0, q4\n\tvminnm.f32 q0, q0, q5\n\t"
#define AOT_FCW_CLAMP2 AOT_FCW_CLAMP1 "vmaxnm.f32 q1, q1, q4\n\tvminnm.f32 q1, q1, q5\n\t"
#define AOT_FCW_CLAMP3 AOT_FCW_CLAMP2 "vmaxnm.f32 q2, q2, q4\n\tvminnm.f32 q2, q2, q5\n\t"
#define AOT_FCW_CLAMP4 AOT_FCW_CLAMP3 "vmaxnm.f32 q3, q3, q4\n\tvminnm.f32 q3, q3, q5\n\t"
#define AOT_FCW_STORE1 "vpst\n\tvstrwt.32 q0, [%[x1]]"
#define AOT_FCW_STORE2 "vstm %[x1]!, {d0-d1}\n\tvpst\n\tvstrwt.32 q1, [%[x1]]"
#define AOT_FCW_STORE3 "vstm %[x1]!, {d0-d3}\n\tvpst\n\tvstrwt.32 q2, [%[x1]]"
#define AOT_FCW_STORE4 "vstm %[x1]!, {d0-d5}\n\tvpst\n\tvstrwt.32 q3, [%[x1]]"
/* A block of V vectors: the sums from zero, 8 inputs a pass, the rest one at a time, the outputs (the bias and the
 * outputs' pointers advanced in d). */
/* clang-format off */
#define AOT_FCW_BLOCK_ASM(V, SUB)                                                                                      \
    "ldr %[x0], [%[d], #16]\n\t"                                                                                       \
    "vldm %[x0], {d0-d7}\n\t"                                                                                          \
    "ldr %[a], [%[d], #28]\n\t"                                                                                        \
    "ldr %[x0], [%[d], #12]\n\t"                                                                                       \
    "lsrs %[x0], %[x0], #3\n\t"                                                                                        \
    "wls lr, %[x0], 2f\n"                                                                                              \
    "1:\n\t"                                                                                                           \
    "ldm %[a]!, {%[x0], %[x1], %[x2], %[x3], %[x4], %[x5], %[x6], %[x7]}\n\t"                                          \
    AOT_FCW_PASS##V                                                                                                    \
    "le lr, 1b\n"                                                                                                      \
    "2:\n\t"                                                                                                           \
    "ldr %[x0], [%[d], #12]\n\t"                                                                                       \
    "and %[x0], %[x0], #7\n\t"                                                                                         \
    "wls lr, %[x0], 4f\n"                                                                                              \
    "3:\n\t"                                                                                                           \
    "ldr %[x0], [%[a]], #4\n\t"                                                                                        \
    AOT_FCW_LD##V                                                                                                      \
    AOT_FCW_FMA##V                                                                                                     \
    "le lr, 3b\n"                                                                                                      \
    "4:\n\t"                                                                                                           \
    "ldrd %[x0], %[x1], [%[d]]\n\t"                                                                                    \
    "ldr %[x2], [%[d], #8]\n\t"                                                                                        \
    "subs %[x2], %[x2], #" SUB "\n\t"                                                                                  \
    "cbz %[x0], 5f\n\t"                                                                                                \
    AOT_FCW_BIAS##V                                                                                                    \
    AOT_FCW_ADD##V                                                                                                     \
    "adds %[x0], %[x0], #64\n\t"                                                                                       \
    "str %[x0], [%[d]]\n"                                                                                              \
    "5:\n\t"                                                                                                           \
    "ldrd %[x3], %[x4], [%[d], #20]\n\t"                                                                               \
    "vdup.32 q4, %[x3]\n\t"                                                                                            \
    "vdup.32 q5, %[x4]\n\t"                                                                                            \
    AOT_FCW_CLAMP##V                                                                                                   \
    "adds %[x3], %[x1], #64\n\t"                                                                                       \
    "str %[x3], [%[d], #4]\n\t"                                                                                        \
    "vctp.32 %[x2]\n\t"                                                                                                \
    AOT_FCW_STORE##V "\n\t"
/* The row: block after block, each of the width its units left give (16 while more than 12 are left). */
#define AOT_FCW_ROW_ASM                                                                                                \
    "9:\n\t"                                                                                                           \
    "ldr %[x0], [%[d], #8]\n\t"                                                                                        \
    "cmp %[x0], #12\n\t"                                                                                               \
    "bgt 14f\n\t"                                                                                                      \
    "cmp %[x0], #8\n\t"                                                                                                \
    "bgt 13f\n\t"                                                                                                      \
    "cmp %[x0], #4\n\t"                                                                                                \
    "bgt 12f\n"                                                                                                        \
    AOT_FCW_BLOCK_ASM(1, "0")                                                                                          \
    "b 7f\n"                                                                                                           \
    "12:\n\t"                                                                                                          \
    AOT_FCW_BLOCK_ASM(2, "4")                                                                                          \
    "b 7f\n"                                                                                                           \
    "13:\n\t"                                                                                                          \
    AOT_FCW_BLOCK_ASM(3, "8")                                                                                          \
    "b 7f\n"                                                                                                           \
    "14:\n\t"                                                                                                          \
    AOT_FCW_BLOCK_ASM(4, "12")                                                                                         \
    "7:\n\t"                                                                                                           \
    "ldr %[x0], [%[d], #8]\n\t"                                                                                        \
    "subs %[x0], %[x0], #16\n\t"                                                                                       \
    "str %[x0], [%[d], #8]\n\t"                                                                                        \
    "bgt 9b"
/* clang-format on */
#endif

/* One row: each output the sum over k < d->n of a[k] * w[k * width + j] (the wide layout), one tap after the other
 * from 0.0f, plus the bias, clamped (f32_out.h's bits: VMAXNM/VMINNM on Helium), to d->out.  Helium: one asm pass
 * for all the blocks (AOT_FCW_PASS*: KWS's 12 units take 31 instructions per 96 MACs), the outputs from the
 * registers, the last vector's stores predicated (VCTP). */
static __attribute__((noinline)) void aot_f32_row_wide(const float* w, aot_f32_wide_t* d)
{
#if defined(AOT_FCW_MVE)
    /* LDM fills its registers in ascending order: the eight inputs' registers are named (x0 a low register for
     * CBZ). */
    const float* a;
    register uint32_t x0 __asm__("r0");
    register uint32_t x1 __asm__("r1");
    register uint32_t x2 __asm__("r2");
    register uint32_t x3 __asm__("r3");
    register uint32_t x4 __asm__("r4");
    register uint32_t x5 __asm__("r5");
    register uint32_t x6 __asm__("r6");
    register uint32_t x7 __asm__("r8");
    __asm__ volatile(AOT_FCW_ROW_ASM
                     : [a] "=&r"(a), [w] "+r"(w), [x0] "=&l"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
                       [x4] "=&r"(x4), [x5] "=&r"(x5), [x6] "=&r"(x6), [x7] "=&r"(x7)
                     : [d] "r"(d)
                     : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
#else
    float acc[AOT_F32_WIDE_BLOCK];
    int32_t o, k, j;
    for (o = 0; o < d->units; o += AOT_F32_WIDE_BLOCK) {
        const int32_t count = d->units - o < AOT_F32_WIDE_BLOCK ? d->units - o : AOT_F32_WIDE_BLOCK;
        const int32_t width = (count + 3) & ~3;
        for (j = 0; j < width; j++) {
            acc[j] = 0.0f;
        }
        for (k = 0; k < d->n; k++, w += width) {
            for (j = 0; j < width; j++) {
                acc[j] = fmaf(d->a[k], w[j], acc[j]);
            }
        }
        for (j = 0; j < count; j++) {
            d->out[o + j] = aot_f32_clamp(d->bias == NULL ? acc[j] : acc[j] + d->bias[o + j], d->lo, d->hi);
        }
    }
#endif
}

/* Every row through the wide row pass (on Helium one VFMA per 4 MACs and one load per input: the pair tile's 15
 * per 32 would not beat it). */
static void aot_fully_connected_f32_wide(const float* input, int32_t batches, int32_t depth, const float* filter,
                                         const float* bias, float* output, int32_t units, float lo, float hi)
{
    aot_f32_wide_t d;
    int32_t b;
    d.n = depth;
    d.zeros = aot_f32_zeros;
    d.lo = lo;
    d.hi = hi;
    for (b = 0; b < batches; b++) {
        d.a = input + b * depth;
        d.bias = bias;
        d.out = output + b * units;
        d.units = units;
        aot_f32_row_wide(filter, &d);
    }
}
#endif

/* The kernel, both units' entry points (one_row constant in each: the pair tile's code only where it is 0). */
static inline __attribute__((always_inline)) void
aot_fc_f32_gemm_body(const float* input, int32_t batches, int32_t accum_depth, const float* filter, int32_t block,
                     const float* bias, float* output, int32_t out_depth, float act_min, float act_max, int32_t one_row)
{
    int32_t b, o;
#if !defined(AOT_F32_VFP)
    if (block == AOT_F32_WIDE_BLOCK) {
        aot_fully_connected_f32_wide(input, batches, accum_depth, filter, bias, output, out_depth, act_min, act_max);
        return;
    }
#endif
#if defined(AOT_F32_MVE)
    /* Helium's compiler layout is the wide one: another block (a hand-made call) takes the C tile, one row at a
     * time, without the pair tile's and the outputs' code. */
    for (b = 0; b < batches; b++) {
        const float* w = filter;
        for (o = 0; o < out_depth; o += block, w += accum_depth * block) {
            float acc[2 * AOT_F32_MAX_BLOCK];
            int32_t j;
            aot_f32_tile_c(input + b * accum_depth, input + b * accum_depth, w, accum_depth, block, aot_f32_zeros, acc);
            for (j = 0; j < block && o + j < out_depth; j++) {
                output[b * out_depth + o + j] =
                    aot_f32_clamp(bias == NULL ? acc[j] : acc[j] + bias[o + j], act_min, act_max);
            }
        }
    }
    return;
#endif
    for (b = 0; b < batches; b += one_row ? 1 : 2) {
        const int32_t rows = !one_row && b + 1 < batches ? 2 : 1;
        const float* a0 = input + b * accum_depth;
        const float* a1 = rows == 2 ? a0 + accum_depth : a0;
        const float* w = filter;
        o = 0;
#if defined(AOT_F32_VFP)
        if (rows == 1 && block == AOT_F32_NATIVE_BLOCK && out_depth >= block
#if defined(AOT_F32_OUT_FPV4)
            && act_min == -FLT_MAX && act_max == FLT_MAX
#endif
        ) {
            /* Every whole block in one pass; a part block after them takes the tile below. */
            const int32_t whole = out_depth / block;
            aot_f32_row_out(a0, w, accum_depth, bias, output + b * out_depth, act_min, act_max, whole);
            o = whole * block;
            w += whole * accum_depth * block;
        }
        if (rows == 1 && block == AOT_F32_NATIVE_BLOCK && out_depth - o > 0 && out_depth - o <= 2) {
            float acc[2];
            int32_t j;
            aot_f32_row_two(a0, w, accum_depth, acc);
            for (j = 0; j < out_depth - o; j++) {
                output[b * out_depth + o + j] =
                    aot_f32_clamp(bias == NULL ? acc[j] : acc[j] + bias[o + j], act_min, act_max);
            }
            continue;
        }
#endif
        for (; o < out_depth; o += block) {
            float acc[2 * AOT_F32_MAX_BLOCK];
            const int32_t count = out_depth - o < block ? out_depth - o : block;
            if (rows == 2) {
                aot_f32_tile(a0, a1, w, accum_depth, block, aot_f32_zeros, acc);
            } else {
                aot_f32_row_tile(a0, w, accum_depth, block, acc);
            }
            aot_f32_tile_store(acc, block, bias == NULL ? NULL : bias + o, count, rows, output + b * out_depth + o,
                               output + (b + rows - 1) * out_depth + o, act_min, act_max);
            w += accum_depth * block;
        }
    }
}

#endif /* AOT_FULLY_CONNECTED_F32_GEMM_BODY_H */
