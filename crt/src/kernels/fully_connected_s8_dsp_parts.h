/* The DSP fully connected kernels' parts (fully_connected_s8_dsp.c, fully_connected_s8_dsp_exact.c,
 * fully_connected_s8_dsp_chain.c): the input expansion, the blocks of 8 rows (aot_fc8_blocks) and the per-row
 * helpers.  The asm routine aot_fc8_blocks is defined once, with external linkage, in a unit of its own
 * (fully_connected_s8_dsp_fc8.c), which the others declare: an image of chained layers links it
 * without the general entry point's C (aot_fc_expand stays static in each: called across units, it changed the
 * caller's register allocation).  The units include aot_sched.h first.
 */
#ifndef AOT_KERNELS_FULLY_CONNECTED_S8_DSP_PARTS_H_
#define AOT_KERNELS_FULLY_CONNECTED_S8_DSP_PARTS_H_

#include "aot/kernels/fully_connected.h"
#include "dsp_s8.h"

/* Expands `depth` int8 values into (xa, xc) word pairs; returns 128 * sum(x0 + x2), the correction every
 * accumulator subtracts.  Two quads per pass, the XOR constant of aot_expand_xc and the lane-sum constant held in
 * registers (GCC rebuilt them per quad: 12 instructions a quad, now 7.5). */
#if !defined(AOT_FC8_UNIT)
/* noinline: called once per unit now, GCC would inline it (as it did not when both entry points were one unit);
 * unused: the chain's unit calls it only on the cores with the assembly blocks. */
__attribute__((noinline, unused)) static int32_t aot_fc_expand(const int8_t* in, int32_t depth, uint32_t* out)
{
    const int32_t quads = depth / 4;
    const int8_t* const end2 = in + 8 * (quads >> 1);
    uint32_t flip = 0xFF80FF80u, ones = 0x00010001u;
    int32_t sum = 0;
#if defined(__GNUC__)
    /* Keep the constants in registers: opaque to GCC's constant propagation. */
    __asm__("" : "+r"(flip), "+r"(ones));
#endif
    while (in != end2) {
        const uint32_t v = aot_read32(in), u = aot_read32(in + 4);
        const uint32_t va = aot_expand_xa(v), ua = aot_expand_xa(u);
        out[0] = va;
        out[1] = aot_rev16(v) ^ flip;
        out[2] = ua;
        out[3] = aot_rev16(u) ^ flip;
        sum = aot_smlad(ua, ones, aot_smlad(va, ones, sum));
        in += 8;
        out += 4;
    }
    if (quads & 1) {
        const uint32_t v = aot_read32(in);
        const uint32_t va = aot_expand_xa(v);
        out[0] = va;
        out[1] = aot_rev16(v) ^ flip;
        sum = aot_smlad(va, ones, sum);
    }
    return sum * 128;
}
#endif

/* One quad of the input (xa, xc) against the next word of each of 4 rows (half a block's words for the quad). */
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

/* The blocks of 8 rows.  aot_fc8_blocks is one assembly routine, the same instructions at every optimization level:
 * per block an LDM of the 8 biases, then the loop over the quads of the expanded input, 8 quads per pass and entered
 * at the quad that makes the passes whole (so any count of quads takes the one loop), per quad an LDRD of the input
 * pair, four LDRD of weights, 8 SXTB16 and 16 SMLAD into r0..r7 (29 instructions for 32 MACs; the 8 accumulators,
 * the input pair, two weight words and the two stream pointers are the 14 registers there are, so the end of the
 * pass is compared with a value on the stack).  Then the block's tail, chosen once per call:
 *  - per-tensor short requantization (AOT_FC8_FULL: int8 saturation; AOT_FC8_CLAMP: and the activation range on
 *    the four packed bytes, SSUB8/SEL): per output RSB (2 acc = 2 (bias + sum) - 2 corr, one instruction for the
 *    correction and the doubling), ADD of the sign, SMMLAR, ASR, SSAT; the bytes packed by BFI, two word stores.
 *    Both modes run the one requantization, then LDR PC to the clamp or straight to the stores (the mode's
 *    addresses from the table at the end: one text of it, not one per mode, 0.2 KB less), and the blocks end
 *    when the output pointer reaches out + 8 blocks (a CMP, where a count in the frame took SUBS and STR: the
 *    LDR PC's cost);
 *  - AOT_FC8_RAW: the 8 accumulators (corr subtracted) stored as int32, for the C requantization (per-channel or
 *    TFLite's in full), one block per call (no loop back).
 * It reads its arguments from an aot_fc8_job, copied to its stack frame (the loop has no register to spare).  Why
 * not C: the loop needs all 14 registers, which GCC's allocator does not give an asm statement at every level. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__)
#define AOT_FC8_ASM 1

enum { AOT_FC8_FULL = 0, AOT_FC8_CLAMP = 1, AOT_FC8_RAW = 2 };

/* The routine's arguments, in the order of its stack frame (offsets in the asm). */
struct aot_fc8_job {
    uint32_t entry;       /* 0: set by the routine */
    uint32_t tail;        /* 4: set by the routine */
    const uint32_t* xbuf; /* 8: the expanded input */
    const uint32_t* xend; /* 12: its end */
    const int32_t* bias;  /* 16 */
    void* out;            /* 20: int8 outputs, or int32 accumulators (AOT_FC8_RAW) */
    int32_t blocks;       /* 24: at least 1 (AOT_FC8_RAW: 1); the routine keeps out's end there */
    int32_t corr2;        /* 28: 2 corr */
    int32_t mult;         /* 32 */
    int32_t add;          /* 36 */
    int32_t rs;           /* 40 */
    uint32_t min4;        /* 44: act_min in each byte */
    uint32_t max4;        /* 48: act_max in each byte */
    const uint32_t* w;    /* 52: into r12; the routine keeps there where the requantization goes on */
    int32_t corr;         /* 56 */
};

/* Rows 2k, 2k + 1 of one quad (input pair in r8, r9; accumulators ra, rb). */
#define AOT_FC8_ROWS(ra, rb)                                                                                           \
    "ldrd r10, r11, [r12], #8\n\t"                                                                                     \
    "smlad " ra ", r10, r8, " ra "\n\t"                                                                                \
    "smlad " rb ", r11, r8, " rb "\n\t"                                                                                \
    "sxtb16 r10, r10, ror #8\n\t"                                                                                      \
    "sxtb16 r11, r11, ror #8\n\t"                                                                                      \
    "smlad " ra ", r10, r9, " ra "\n\t"                                                                                \
    "smlad " rb ", r11, r9, " rb "\n\t"

/* One quad: 116 bytes of 32-bit instructions (the entry arithmetic relies on it). */
#define AOT_FC8_QUAD                                                                                                   \
    "ldrd r8, r9, [lr], #8\n\t" AOT_FC8_ROWS("r0", "r1") AOT_FC8_ROWS("r2", "r3") AOT_FC8_ROWS("r4", "r5")             \
        AOT_FC8_ROWS("r6", "r7")

/* Output r: requantized (corr2 in r8, multiplier r9, add r10, right shift r11) and saturated to int8. */
#define AOT_FC8_REQ(r)                                                                                                 \
    "rsb " r ", r8, " r ", lsl #1\n\t"                                                                                 \
    "add lr, r10, " r ", asr #31\n\t"                                                                                  \
    "smmlar " r ", " r ", r9, lr\n\t"                                                                                  \
    "asr " r ", " r ", r11\n\t"                                                                                        \
    "ssat " r ", #8, " r "\n\t"

/* The 8 outputs requantized and packed into r0 (rows 0..3) and r4 (rows 4..7). */
#define AOT_FC8_REQ8                                                                                                   \
    "ldrd r8, r9, [sp, #28]\n\t"                                                                                       \
    "ldrd r10, r11, [sp, #36]\n\t" AOT_FC8_REQ("r0") AOT_FC8_REQ("r1") AOT_FC8_REQ("r2") AOT_FC8_REQ("r3")             \
        AOT_FC8_REQ("r4") AOT_FC8_REQ("r5") AOT_FC8_REQ("r6") AOT_FC8_REQ("r7") "bfi r0, r1, #8, #8\n\t"               \
                                                                                "bfi r0, r2, #16, #8\n\t"              \
                                                                                "bfi r0, r3, #24, #8\n\t"              \
                                                                                "bfi r4, r5, #8, #8\n\t"               \
                                                                                "bfi r4, r6, #16, #8\n\t"              \
                                                                                "bfi r4, r7, #24, #8\n\t"

/* aligned(4): the ADRs are resolved in the object assuming the function's address is the one it has there modulo 4. */
#if defined(__clang__)
#define AOT_FC8_ATTR __attribute__((naked, noinline, aligned(4)))
#else
#define AOT_FC8_ATTR __attribute__((naked, noinline, noipa, aligned(4)))
#endif

/* The parameters are read by the asm (r0..r2), not by C. */
#define AOT_FC8_ARG __attribute__((unused))

/* `job->blocks` blocks of 8 rows (quads: accum_depth / 4, at least 1; mode: AOT_FC8_*). */
void aot_fc8_blocks(struct aot_fc8_job* job, uint32_t quads, uint32_t mode);
#else
#define AOT_FC8_ASM 0
#endif

/* The C form of a block of 8 rows (quads >= 1): each quad's 8 words are two quads of 4 rows. */
AOT_HOT_INLINE void aot_fc_block8(const uint32_t** wp, const uint32_t* xp, int32_t quads, int32_t* a)
{
    int32_t q;
    for (q = 0; q < quads; q++) {
        aot_fc_quad4(wp, xp[0], xp[1], a);
        aot_fc_quad4(wp, xp[0], xp[1], a + 4);
        xp += 2;
    }
}

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

#endif /* AOT_KERNELS_FULLY_CONNECTED_S8_DSP_PARTS_H_ */
