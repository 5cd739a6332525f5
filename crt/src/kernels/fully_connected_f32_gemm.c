/* Fast float32 fully connected layer: pairs of batch rows times blocks of output units through the GEMM tile of
 * gemm_f32_tile.h (Helium, the FPU's VFMA, or C); a single row (a batch of one, or the last of an odd batch) takes
 * the one-row tile, which loads each weight once for its one multiply-add, on the FPU cores and Helium every block
 * of the row in one asm loop with its outputs. */
#include "aot_sched.h"

#include <float.h>
#include <stddef.h>

#include "aot/kernels/fully_connected.h"
#include "gemm_f32_tile.h"

/* Four inputs of the Helium batch-of-one pass: each input (a core register) times two weight vectors into the two
 * sums' vectors q0/q1 (8 units), the loads of the next input's weights between the multiply-adds. */
#define AOT_FC_F32_MVE_STEP4_ASM                                                                                       \
    "ldrd %[x0], %[x1], [%[a]], #8\n\t"                                                                                \
    "ldrd %[x2], %[x3], [%[a]], #8\n\t"                                                                                \
    "vldrw.32 q2, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q3, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q4, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q5, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q2, %[x0]\n\t"                                                                                       \
    "vfma.f32 q1, q3, %[x0]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q4, %[x1]\n\t"                                                                                       \
    "vfma.f32 q1, q5, %[x1]\n\t"                                                                                       \
    "vldrw.32 q2, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q3, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x2]\n\t"                                                                                       \
    "vfma.f32 q0, q2, %[x3]\n\t"                                                                                       \
    "vfma.f32 q1, q3, %[x3]\n\t"

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
#elif defined(AOT_F32_MVE)
        /* q0, q1: the 8 sums; q2-q7: weights, two vectors a tap; scalar taps in core registers, 4 a pass. */
        int32_t quads = n >> 2, rest = n & 3;
        uint32_t x0, x1, x2, x3;
        __asm__ volatile(
            "vldrw.32 q0, [%[z]]\n\t"
            "vldrw.32 q1, [%[z], #16]\n\t"
            "wls lr, %[q], 2f\n"
            "1:\n\t" AOT_FC_F32_MVE_STEP4_ASM "le lr, 1b\n"
            "2:\n\t"
            "cmp %[r], #0\n\t"
            "beq 4f\n"
            "3:\n\t"
            "ldr %[x0], [%[a]], #4\n\t"
            "vldrw.32 q2, [%[w]], #16\n\t"
            "vldrw.32 q3, [%[w]], #16\n\t"
            "vfma.f32 q0, q2, %[x0]\n\t"
            "vfma.f32 q1, q3, %[x0]\n\t"
            "subs %[r], %[r], #1\n\t"
            "bne 3b\n"
            "4:\n\t"
            "vstrw.32 q0, [%[acc]]\n\t"
            "vstrw.32 q1, [%[acc], #16]\n\t"
            "vstrw.32 q0, [%[acc], #32]\n\t"
            "vstrw.32 q1, [%[acc], #48]"
            : [a] "+r"(a), [w] "+r"(w), [r] "+r"(rest), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3)
            : [acc] "r"(acc), [z] "r"(aot_f32_zeros), [q] "r"(quads)
            : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
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

#if defined(AOT_F32_MVE)
/* What aot_f32_row_out_mve reads beside its registers: the row, its length, the bias (NULL: none, else advanced by
 * the asm), the outputs (advanced), the range as two vectors.  Byte offsets as the asm reads them. */
typedef struct {
    const float* a;    /* 0 */
    int32_t n;         /* 4 */
    const float* bias; /* 8 */
    float* out;        /* 12 */
    float range[8];    /* 16: lo x 4, hi x 4 */
} aot_f32_row_mve_t;

/* A batch of one on Helium, every block of 8 units (the last one part: `units` in all) in one asm loop: the
 * one-row tile (4 taps a pass, 19 instructions per 32 MACs; a last block of at most 4 units its first vector only,
 * 11 per 16) and the block's outputs (the bias, VMAXNM/VMINNM,
 * f32_out.h's bits) in the same pass, the part block's bias loads and output stores predicated (VCTP): no sums
 * through memory, no second row, no C per block. */
static void aot_f32_row_out_mve(const float* w, int32_t units, aot_f32_row_mve_t* d)
{
    const float* a;
    uint32_t x0, x1, x2, x3, t;
    __asm__ volatile(
        "8:\n\t"
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "ldrd %[a], %[t], [%[d]]\n\t"
        "lsrs %[t], %[t], #2\n\t"
        "cmp %[u], #4\n\t"
        "ble 6f\n\t"
        "wls lr, %[t], 2f\n"
        "1:\n\t" AOT_FC_F32_MVE_STEP4_ASM "le lr, 1b\n\t"
        "b 2f\n"
        /* A last block of at most 4 units: its first vector only (the second's weights are the padding's zeros). */
        "6:\n\t"
        "wls lr, %[t], 2f\n"
        "7:\n\t"
        "ldrd %[x0], %[x1], [%[a]], #8\n\t"
        "ldrd %[x2], %[x3], [%[a]], #8\n\t"
        "vldrw.32 q2, [%[w]], #32\n\t"
        "vldrw.32 q4, [%[w]], #32\n\t"
        "vldrw.32 q6, [%[w]], #32\n\t"
        "vldrw.32 q3, [%[w]], #32\n\t"
        "vfma.f32 q0, q2, %[x0]\n\t"
        "vfma.f32 q0, q4, %[x1]\n\t"
        "vfma.f32 q0, q6, %[x2]\n\t"
        "vfma.f32 q0, q3, %[x3]\n\t"
        "le lr, 7b\n"
        "2:\n\t"
        "ldr %[t], [%[d], #4]\n\t"
        "ands %[t], %[t], #3\n\t"
        "beq 4f\n"
        "3:\n\t"
        "ldr %[x0], [%[a]], #4\n\t"
        "vldrw.32 q2, [%[w]], #16\n\t"
        "vldrw.32 q3, [%[w]], #16\n\t"
        "vfma.f32 q0, q2, %[x0]\n\t"
        "vfma.f32 q1, q3, %[x0]\n\t"
        "subs %[t], %[t], #1\n\t"
        "bne 3b\n"
        "4:\n\t"
        /* x1: the second vector's units (units - 4, at least 0); a: the bias, x2: the outputs. */
        "subs %[x1], %[u], #4\n\t"
        "it mi\n\t"
        "movmi %[x1], #0\n\t"
        "ldrd %[a], %[x2], [%[d], #8]\n\t"
        "cbz %[a], 5f\n\t"
        "vctp.32 %[u]\n\t"
        "vpst\n\t"
        "vldrwt.32 q2, [%[a]]\n\t"
        "vctp.32 %[x1]\n\t"
        "vpst\n\t"
        "vldrwt.32 q3, [%[a], #16]\n\t"
        "vadd.f32 q0, q0, q2\n\t"
        "vadd.f32 q1, q1, q3\n\t"
        "adds %[a], #32\n\t"
        "str %[a], [%[d], #8]\n"
        "5:\n\t"
        "vldrw.32 q2, [%[d], #16]\n\t"
        "vldrw.32 q3, [%[d], #32]\n\t"
        "vmaxnm.f32 q0, q0, q2\n\t"
        "vmaxnm.f32 q1, q1, q2\n\t"
        "vminnm.f32 q0, q0, q3\n\t"
        "vminnm.f32 q1, q1, q3\n\t"
        "vctp.32 %[u]\n\t"
        "vpst\n\t"
        "vstrwt.32 q0, [%[x2]]\n\t"
        "vctp.32 %[x1]\n\t"
        "vpst\n\t"
        "vstrwt.32 q1, [%[x2], #16]\n\t"
        "adds %[x2], #32\n\t"
        "str %[x2], [%[d], #12]\n\t"
        "subs %[u], %[u], #8\n\t"
        "bgt 8b"
        : [a] "=&l"(a), [t] "=&r"(t), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [w] "+r"(w),
          [u] "+r"(units)
        : [d] "r"(d)
        : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
}
#endif

void aot_fully_connected_f32_gemm(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                  int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                  float act_max)
{
    int32_t b, o;
    for (b = 0; b < batches; b += 2) {
        const int32_t rows = b + 1 < batches ? 2 : 1;
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
#if defined(AOT_F32_MVE)
        if (rows == 1 && block == AOT_F32_NATIVE_BLOCK) {
            aot_f32_row_mve_t d;
            d.a = a0;
            d.n = accum_depth;
            d.bias = bias;
            d.out = output + b * out_depth;
            for (o = 0; o < 4; o++) {
                d.range[o] = act_min;
                d.range[4 + o] = act_max;
            }
            aot_f32_row_out_mve(w, out_depth, &d);
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
