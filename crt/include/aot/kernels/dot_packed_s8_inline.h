/* Two int8 multiply-accumulates per multiply on cores without SIMD multiplies (Cortex-M0/M3): the weights of two
 * output channels packed into one 32-bit word at compile time (compiler/ops/common/packed.py), for the
 * shape-specialized convolution and fully connected bodies (see aot/kernels/requant_s8_inline.h for why bodies live in
 * headers).
 *
 * A packed word is W = w_a + w_b * 2^23 (channel a in the low lane, b in the high lane; |W| <= 2^30 + 128, exact in
 * int32).  For one input value x, x * W = x * w_a + (x * w_b) * 2^23, and the 64-bit sum of such products (SMLAL on
 * the M3: one instruction for two MACs) started at AOT_PACK_BIAS is
 *     A = (AOT_PACK_BIAS + L) + H * 2^23,  L = sum x * w_a,  H = sum x * w_b.
 * Whenever -2^22 <= L < 2^22 the low 23 bits of A are AOT_PACK_BIAS + L exactly and floor(A / 2^23) is H, so both
 * channels' sums come back unchanged (aot_pack_split).  The compiler packs a layer only where it proves that bound
 * from the weights (x is an int8 value or the zero point: the input offset is folded into the bias); a run of at
 * most AOT_PACK_SAFE_RUN taps meets it for any weights (255 * 128 * 128 < 2^22), which is how the fully connected
 * body splits a longer accumulation.
 *
 * Weight layout of a group of four output channels (4g .. 4g+3; channels past the layer's are zero): per tap t two
 * words, (4g, 4g+1) then (4g+2, 4g+3), so one group's weights are 2 * taps consecutive words.
 */
#ifndef AOT_KERNELS_DOT_PACKED_S8_INLINE_H_
#define AOT_KERNELS_DOT_PACKED_S8_INLINE_H_

#include <stddef.h>
#include <stdint.h>

#include "aot/kernels/requant_s8_inline.h"

#define AOT_PACK_SHIFT    23
#define AOT_PACK_BIAS     ((int64_t)1 << (AOT_PACK_SHIFT - 1))
#define AOT_PACK_SAFE_RUN 255

/* The tap loops: unrolled by 8 (constant offsets, a quarter of the loop overhead per tap). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define AOT_PACK_UNROLL _Pragma("GCC unroll 8")
#else
#define AOT_PACK_UNROLL
#endif

/* Thumb-2 (the Cortex-M3) with GCC or Clang: the tap loop of aot_pdot4_s8 is an asm loop.  Per tap an LDRSB of
 * the input, an LDRD of its two weight words and two SMLAL into the accumulators' 32-bit halves (4 instructions
 * for 4 MACs), four taps per pass plus SUBS/BNE.  Why not C: GCC 12's code for the C loops depended on the flags.
 * Its RTL unroller does not run at -Os (the pragma above is ignored there: one tap per pass, 2 instructions per
 * MAC), and its register allocator gives each int64_t accumulator an even/odd register pair: the two-pixel tile's
 * four pairs plus pointers and inputs did not fit, so at -O2 and -Os accumulators went to the stack and pairs were
 * shuffled by moves (ResNet-8 with plain flags took 21.2 M instructions at -O2 and 38.6 M at -Os; with the asm
 * loop 19.6 M and 20.0 M).  Per-tap asm statements were not
 * enough either: the allocator still moved the halves between registers from one statement to the next.  The
 * one-pixel tile needs ten registers; its two-pixel form loads the weights twice (an LDRD per tap), which costs
 * what the shared loads saved.  The asm reads the input and weights ("memory": the layer before, inlined into the
 * same function, must have stored its output). */
#if defined(__GNUC__) && defined(__thumb2__)
#define AOT_PACK_ASM 1

/* One tap of the loop; ADDR_X / ADDR_W: the operands' addressing (offset or post-increment). */
#define AOT_PTAP_ASM(addr_x, addr_w)                                                                                   \
    "ldrsb %[p], " addr_x "\n\t"                                                                                       \
    "ldrd %[w0], %[w1], " addr_w "\n\t"                                                                                \
    "smlal %[l0], %[h0], %[p], %[w0]\n\t"                                                                              \
    "smlal %[l1], %[h1], %[p], %[w1]\n\t"

/* One tap as a statement of aot_pdot4_s8 (its variables), advancing x and w. */
#define AOT_PTAP1()                                                                                                    \
    __asm__(AOT_PTAP_ASM("[%[x]], #1", "[%[w]], #8")                                                                   \
            : [l0] "+r"(l0), [h0] "+r"(h0), [l1] "+r"(l1), [h1] "+r"(h1), [x] "+r"(x), [w] "+r"(w), [p] "=&r"(p),      \
              [w0] "=&r"(w0), [w1] "=&r"(w1)                                                                           \
            :                                                                                                          \
            : "memory")

/* The loop over %[n] passes of four taps: 1, 2 and 3 at offsets, then 0, which advances the pointers. */
/* clang-format off */
#define AOT_PPASS_ASM                                                                                                  \
    "1:\n\t"                                                                                                           \
    AOT_PTAP_ASM("[%[x], #1]", "[%[w], #8]")                                                                           \
    AOT_PTAP_ASM("[%[x], #2]", "[%[w], #16]")                                                                          \
    AOT_PTAP_ASM("[%[x], #3]", "[%[w], #24]")                                                                          \
    AOT_PTAP_ASM("[%[x]], #4", "[%[w]], #32")                                                                          \
    "subs %[n], %[n], #1\n\t"                                                                                          \
    "bne 1b"
/* clang-format on */
#endif

/* The two channel sums held by a packed accumulator (see above): *lo_sum for the low lane, *hi_sum for the high. */
AOT_INLINE_BODY void aot_pack_split(int64_t a, int32_t* lo_sum, int32_t* hi_sum)
{
    *hi_sum = (int32_t)(a >> AOT_PACK_SHIFT);
    *lo_sum = (int32_t)((uint32_t)a & ((1u << AOT_PACK_SHIFT) - 1u)) - (int32_t)AOT_PACK_BIAS;
}

/* Two pixels (inputs x and x + x_step), four channels: acc[j] for the first, acc[2 + j] for the second.  Each
 * tap: two input loads, two weight loads, four SMLAL for 8 MACs.  In C: aot_pdot4x2_s8 on targets without the asm
 * loop, and on Thumb-2 for a literal run of at most 8 taps (a filter row of one input channel), which GCC unrolls
 * completely at -O2 and -Os alike and where two asm loops would cost their set-up twice. */
AOT_INLINE_BODY void aot_pdot4x2_s8_c(const int8_t* x, int32_t x_step, const int32_t* w, int32_t n, int64_t* acc)
{
    int64_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t d;
    AOT_PACK_UNROLL
    for (d = 0; d < n; d++) {
        const int32_t p = x[d];
        const int32_t q = x[d + x_step];
        int32_t wv = w[0];
        a0 += (int64_t)p * wv;
        a2 += (int64_t)q * wv;
        wv = w[1];
        a1 += (int64_t)p * wv;
        a3 += (int64_t)q * wv;
        w += 2;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

#ifdef AOT_PACK_ASM
/* One pixel, four channels: acc[j] += sum_{d < n} x[d] * w[2 d + j], j = 0, 1. */
AOT_INLINE_BODY void aot_pdot4_s8(const int8_t* x, const int32_t* w, int32_t n, int64_t* acc)
{
    uint32_t l0 = (uint32_t)acc[0], h0 = (uint32_t)((uint64_t)acc[0] >> 32);
    uint32_t l1 = (uint32_t)acc[1], h1 = (uint32_t)((uint64_t)acc[1] >> 32);
    int32_t passes = n >> 2, rest = n & 3, p, w0, w1;
    if (AOT_CONSTANT(n) && n <= 8) {
        /* A literal short run (a filter row of a few input channels): straight-line taps, no loop. */
        AOT_UNROLL
        for (rest = 0; rest < n; rest++) {
            AOT_PTAP1();
        }
    } else {
        if (passes > 0) {
            __asm__(AOT_PPASS_ASM
                    : [l0] "+r"(l0), [h0] "+r"(h0), [l1] "+r"(l1), [h1] "+r"(h1), [x] "+r"(x), [w] "+r"(w),
                      [n] "+r"(passes), [p] "=&r"(p), [w0] "=&r"(w0), [w1] "=&r"(w1)
                    :
                    : "cc", "memory");
        }
        /* At most 3 taps (unrolled completely: the pragma's trip count is bounded by the literal mask). */
        AOT_UNROLL
        for (; rest > 0; rest--) {
            AOT_PTAP1();
        }
    }
    acc[0] = (int64_t)(((uint64_t)h0 << 32) | l0);
    acc[1] = (int64_t)(((uint64_t)h1 << 32) | l1);
}

/* aot_pdot4_s8 with two taps per pass, for the fully connected body at -Os (__OPTIMIZE_SIZE__): 10 instructions
 * for 8 MACs instead of 18 for 16, and about 30 B less per layer (each distinct layer's loop is inlined; ad01 has
 * five).  The convolutions keep the four-tap pass: their loops carry nearly all of a model's MACs. */
AOT_INLINE_BODY void aot_pdot4_s8_tap2(const int8_t* x, const int32_t* w, int32_t n, int64_t* acc)
{
    uint32_t l0 = (uint32_t)acc[0], h0 = (uint32_t)((uint64_t)acc[0] >> 32);
    uint32_t l1 = (uint32_t)acc[1], h1 = (uint32_t)((uint64_t)acc[1] >> 32);
    int32_t passes = n >> 1, p, w0, w1;
    if (passes > 0) {
        __asm__("1:\n\t" AOT_PTAP_ASM("[%[x], #1]", "[%[w], #8]")
                    AOT_PTAP_ASM("[%[x]], #2", "[%[w]], #16") "subs %[n], %[n], #1\n\t"
                                                              "bne 1b"
                : [l0] "+r"(l0), [h0] "+r"(h0), [l1] "+r"(l1), [h1] "+r"(h1), [x] "+r"(x), [w] "+r"(w),
                  [n] "+r"(passes), [p] "=&r"(p), [w0] "=&r"(w0), [w1] "=&r"(w1)
                :
                : "cc", "memory");
    }
    if ((n & 1) != 0) {
        AOT_PTAP1();
    }
    acc[0] = (int64_t)(((uint64_t)h0 << 32) | l0);
    acc[1] = (int64_t)(((uint64_t)h1 << 32) | l1);
}

/* Two pixels (inputs x and x + x_step), four channels: acc[j] for the first, acc[2 + j] for the second; one
 * pixel after the other (the weights loaded twice). */
AOT_INLINE_BODY void aot_pdot4x2_s8(const int8_t* x, int32_t x_step, const int32_t* w, int32_t n, int64_t* acc)
{
    if (AOT_CONSTANT(n) && n <= 8) {
        aot_pdot4x2_s8_c(x, x_step, w, n, acc);
        return;
    }
    aot_pdot4_s8(x, w, n, acc);
    aot_pdot4_s8(x + x_step, w, n, acc + 2);
}
#else
/* One pixel, four channels: acc[j] += sum_{d < n} x[d] * w[2 d + j], j = 0, 1. */
AOT_INLINE_BODY void aot_pdot4_s8(const int8_t* x, const int32_t* w, int32_t n, int64_t* acc)
{
    int64_t a0 = acc[0], a1 = acc[1];
    int32_t d;
    AOT_PACK_UNROLL
    for (d = 0; d < n; d++) {
        const int32_t p = x[d];
        a0 += (int64_t)p * w[0];
        a1 += (int64_t)p * w[1];
        w += 2;
    }
    acc[0] = a0;
    acc[1] = a1;
}

/* Two pixels (inputs x and x + x_step), four channels: acc[j] for the first, acc[2 + j] for the second. */
AOT_INLINE_BODY void aot_pdot4x2_s8(const int8_t* x, int32_t x_step, const int32_t* w, int32_t n, int64_t* acc)
{
    aot_pdot4x2_s8_c(x, x_step, w, n, acc);
}
#endif

/* bias[oc + r] (0 without bias) plus sum[r], requantized into out[r] for r < rows (1..4, the channels the group
 * really has). */
AOT_INLINE_BODY void aot_pack_requant_sums(const int32_t* sum, int32_t rows, const int32_t* bias, int8_t* out,
                                           int32_t oc, int32_t requant, const int32_t* out_multiplier,
                                           const int32_t* out_second, int32_t quant_step, int32_t output_offset,
                                           int32_t act_min, int32_t act_max)
{
    int32_t r;
    for (r = 0; r < rows; r++) {
        const int32_t acc = sum[r] + (bias != NULL ? bias[oc + r] : 0);
        out[r] = aot_requant_s8(acc, requant, out_multiplier[(oc + r) * quant_step], out_second[(oc + r) * quant_step],
                                output_offset, act_min, act_max);
    }
}

/* The same from the group's two packed accumulators a[0], a[1]. */
AOT_INLINE_BODY void aot_pack_requant4(const int64_t* a, int32_t rows, const int32_t* bias, int8_t* out, int32_t oc,
                                       int32_t requant, const int32_t* out_multiplier, const int32_t* out_second,
                                       int32_t quant_step, int32_t output_offset, int32_t act_min, int32_t act_max)
{
    int32_t s[4];
    aot_pack_split(a[0], &s[0], &s[1]);
    aot_pack_split(a[1], &s[2], &s[3]);
    aot_pack_requant_sums(s, rows, bias, out, oc, requant, out_multiplier, out_second, quant_step, output_offset,
                          act_min, act_max);
}

#endif /* AOT_KERNELS_DOT_PACKED_S8_INLINE_H_ */
