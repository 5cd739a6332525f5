/* int8 fully connected layer for cores with the DSP extension (dual 16-bit MACs), with a portable fallback.
 *
 * The compiler selects this kernel for cores with the DSP extension when accum_depth is a multiple of 4, the
 * input zero point is folded into the bias (see dsp_s8.h); aot_fully_connected_s8_dsp_exact is the same loop with
 * TFLite's full requantization, for layers whose constants compiler/ops/common/short_requant.py refuses.  It stores
 * the weights in the "raw weight word" form of dsp_s8.h (three instructions per four MACs) and in this order,
 * so the inner loop streams them through one pointer:
 *   - output rows in blocks of 4; per block and per 4 input values: row0 (one word), row1, row2, row3;
 *   - the last out_depth % 4 rows follow, each row's words in order.
 * The input row is expanded once per batch into scratch (accum_depth * 2 bytes); the four rows of a block
 * share every load of it.
 */
#include "aot_sched.h"

#include "aot/kernels/fully_connected.h"
#include "dsp_s8.h"

/* Expands `depth` int8 values into (xa, xc) word pairs; returns 128 * sum(x0 + x2), the correction every
 * accumulator subtracts. */
static int32_t aot_fc_expand(const int8_t* in, int32_t depth, uint32_t* out)
{
    const int32_t quads = depth / 4;
    int32_t q, sum = 0;
    for (q = 0; q < quads; q++) {
        const uint32_t v = aot_read32(in + 4 * q);
        const uint32_t xa = aot_expand_xa(v);
        out[2 * q] = xa;
        out[2 * q + 1] = aot_expand_xc(v);
        sum = aot_smlad(xa, 0x00010001u, sum);
    }
    return sum * 128;
}

/* One quad of the input (xa, xc) against the next word of each of the 4 rows of a block. */
AOT_HOT_INLINE void aot_fc_quad4(const uint32_t** wp, uint32_t xa, uint32_t xc, int32_t* a)
{
    uint32_t w0, w1;
    aot_load2(wp, &w0, &w1);
    a[0] = aot_smlad(aot_sxtb16_ror8(w0), xc, aot_smlad(w0, xa, a[0]));
    a[1] = aot_smlad(aot_sxtb16_ror8(w1), xc, aot_smlad(w1, xa, a[1]));
    aot_load2(wp, &w0, &w1);
    a[2] = aot_smlad(aot_sxtb16_ror8(w0), xc, aot_smlad(w0, xa, a[2]));
    a[3] = aot_smlad(aot_sxtb16_ror8(w1), xc, aot_smlad(w1, xa, a[3]));
}

/* The main loop of a block: `pairs` pairs of quads from xp (at least one), given as aot_fc_passes(pairs), which the
 * kernel computes once per call.  With GCC or Clang on a Thumb-2
 * core with the DSP extension it is one asm loop of four quads per pass: per quad an LDRD of the input pair, two of
 * weights, four SXTB16 and eight SMLAD (15 instructions for 32 MACs), then SUBS/BNE of the pass count per pass; an
 * odd number of pairs enters the first pass at its second half (the count's bit 0 says which, its other bits
 * count the passes: the loop ends after them whatever the count).  Why not C: GCC 12's code for the C loop (two quads
 * per pass) depended on the flags.  At -O2 it was the tight loop; at -Os the register allocator gave the weight
 * pointer a register the post-increment LDRD's tie could not keep, so every pass copied it out and back (two
 * MOVs), reloaded xend from the stack and branched twice (36 instructions per two quads instead of 32: ad01_int8 on
 * the M4 at 351,516 instructions against 315,780 at -O2).  The asm reads the expanded input and the weights
 * ("memory": the expansion stored the input just before). */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__)
/* One quad: the input pair (xa, xc) against the next word of each of the block's four rows. */
#define AOT_FC_QUAD_ASM                                                                                                \
    "ldrd %[xa], %[xc], [%[xp]], #8\n\t"                                                                               \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                                                                               \
    "smlad %[a0], %[w0], %[xa], %[a0]\n\t"                                                                             \
    "smlad %[a1], %[w1], %[xa], %[a1]\n\t"                                                                             \
    "sxtb16 %[w0], %[w0], ror #8\n\t"                                                                                  \
    "sxtb16 %[w1], %[w1], ror #8\n\t"                                                                                  \
    "smlad %[a0], %[w0], %[xc], %[a0]\n\t"                                                                             \
    "smlad %[a1], %[w1], %[xc], %[a1]\n\t"                                                                             \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                                                                               \
    "smlad %[a2], %[w0], %[xa], %[a2]\n\t"                                                                             \
    "smlad %[a3], %[w1], %[xa], %[a3]\n\t"                                                                             \
    "sxtb16 %[w0], %[w0], ror #8\n\t"                                                                                  \
    "sxtb16 %[w1], %[w1], ror #8\n\t"                                                                                  \
    "smlad %[a2], %[w0], %[xc], %[a2]\n\t"                                                                             \
    "smlad %[a3], %[w1], %[xc], %[a3]\n\t"

/* The asm loop's count for `pairs` pairs: (passes << 1) | (pairs odd), passes = ceil(pairs / 2). */
static inline uint32_t aot_fc_passes(uint32_t pairs)
{
    return pairs + 2u * (pairs & 1u);
}

AOT_HOT_INLINE void aot_fc_quads4(const uint32_t** wp, const uint32_t* xp, uint32_t count, int32_t* a)
{
    const uint32_t* w = *wp;
    int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    uint32_t xa, xc, w0, w1;
    __asm__("lsrs %[n], %[n], #1\n\t"
            "bcs 2f\n\t"
            "1:\n\t" AOT_FC_QUAD_ASM AOT_FC_QUAD_ASM "2:\n\t" AOT_FC_QUAD_ASM AOT_FC_QUAD_ASM "subs %[n], %[n], #1\n\t"
            "bne 1b"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [wp] "+r"(w), [xp] "+r"(xp), [xa] "=&r"(xa),
              [xc] "=&r"(xc), [w0] "=&r"(w0), [w1] "=&r"(w1), [n] "+r"(count)
            :
            : "cc", "memory");
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
    *wp = w;
}
#else
/* The C loop's count: the pairs. */
static inline uint32_t aot_fc_passes(uint32_t pairs)
{
    return pairs;
}

AOT_HOT_INLINE void aot_fc_quads4(const uint32_t** wp, const uint32_t* xp, uint32_t pairs, int32_t* a)
{
    uint32_t k;
    k = pairs;
    if (k > 0u) {
        do {
            uint32_t xa, xc;
            aot_load2(&xp, &xa, &xc);
            aot_fc_quad4(wp, xa, xc, a);
            aot_load2(&xp, &xa, &xc);
            aot_fc_quad4(wp, xa, xc, a);
            k--;
        } while (k != 0u);
    }
}
#endif

/* Row `row` of the output: requantized with its (or the shared) multiplier and add constant. */
AOT_HOT_INLINE int8_t aot_fc_out(int32_t acc, int32_t row, const int32_t* mult, const int32_t* add, int32_t stride,
                                 int32_t act_min, int32_t act_max)
{
    return aot_dsp_output(acc, mult[row * stride], add[row * stride], act_min, act_max);
}

/* The same with TFLite's full requantization from the multiplier and zp * 256 + shift. */
AOT_HOT_INLINE int8_t aot_fc_out_exact(int32_t acc, int32_t row, const int32_t* mult, const int32_t* zp_shift,
                                       int32_t stride, int32_t act_min, int32_t act_max)
{
    return (int8_t)aot_dsp_clamp(aot_dsp_requant_exact(acc, mult[row * stride], zp_shift[row * stride]), act_min,
                                 act_max);
}

#define AOT_FC_DSP_NAME aot_fully_connected_s8_dsp
#define AOT_FC_DSP_OUT  aot_fc_out
#include "fully_connected_s8_dsp_body.h"
#undef AOT_FC_DSP_NAME
#undef AOT_FC_DSP_OUT
#define AOT_FC_DSP_NAME aot_fully_connected_s8_dsp_exact
#define AOT_FC_DSP_OUT  aot_fc_out_exact
#include "fully_connected_s8_dsp_body.h"
#undef AOT_FC_DSP_NAME
#undef AOT_FC_DSP_OUT
