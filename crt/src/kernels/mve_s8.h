/* Private: the int8 GEMM of the Helium (MVE) kernels (conv2d_s8_mve.c, fully_connected_s8_mve.c), with a portable
 * fallback.
 *
 * On a core with MVE (__ARM_FEATURE_MVE: Cortex-M55) one VMLADAVA.S8 multiplies 16 int8 inputs by 16 int8 weights
 * and adds the sum to a scalar accumulator.  The GEMM takes one or two pixels (rows of K int8 inputs) against
 * four output channels at a time: per 16 taps one input vector per pixel and one weight vector per channel are
 * loaded, so each weight load serves both pixels and each input load four channels.  The K % 16 last taps are
 * one predicated pass (VCTP: the lanes past K load as zero), never a scalar loop.  With K a multiple of 16, up to
 * AOT_MVE_BLOCKS such blocks of a pixel pair run in one assembly loop (aot_mve_dot_blocks) and are requantized
 * after it (K < 16: aot_mve_dot_blocks_short, one predicated vector per pixel and channel); so do
 * rows zero-padded to a multiple of 16 (a convolution's im2col rows, K > 16), whose tail taps are then read
 * without predication (aot_mve_dot_blocks_tail).
 *
 * Weight layout written by the compiler (compiler/ops/common/mve_layout.py; the same bytes as the model, reordered):
 *   - output channels in blocks of 4; per block, first the K % 16 last taps of each of the 4 channels
 *     (4 * (K % 16) bytes), then per 16 taps: 16 weights of each of the 4 channels (64 bytes) -- tails first, so a
 *     16-byte load at any channel's tail stays inside the block when K >= 16;
 *   - the last out_c % 4 channels follow, each channel's K weights in order.
 * The input zero point is folded into the bias by the compiler (padded taps read the zero point: their
 * contribution is zero after folding).
 *
 * Requantization, vectorised across 4 output channels: TFLite's MultiplyByQuantizedMultiplier (double rounding)
 * for every multiplier and shift it allows (aot_mve_requant below says how), then the output offset and the
 * activation clamp.  The portable fallback (the host, other cores) runs the same layout with scalar code and the
 * CRT's reference requantization, so layouts are checked bit-exact on the host; the QEMU tests of mps3-an547 run
 * the MVE code.
 */
#ifndef AOT_KERNELS_MVE_S8_H_
#define AOT_KERNELS_MVE_S8_H_

#include <stdint.h>
#include <string.h>

#include "add_s8_elem.h"
#include "aot/requant.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>
#endif

/* As in dsp_s8.h: GCC keeps small static inline helpers as calls under -Os; the hot ones are forced inline there
 * and left to GCC at -O2. */
#ifndef AOT_HOT_INLINE
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
#define AOT_HOT_INLINE static inline __attribute__((always_inline))
#else
#define AOT_HOT_INLINE static inline
#endif
#endif

/* The block routines that both Helium convolution units call are static (a copy per unit) unless a unit says
 * otherwise before including this header: conv2d_s8_mve.c defines them with external linkage (AOT_MVE_SHARED empty)
 * and conv2d_s8_mve_add.c only declares them (AOT_MVE_CONV_DECLARE), so an image with both units links them once. */
#ifndef AOT_MVE_SHARED
#define AOT_MVE_SHARED static
#endif

/* Are all n shifts right shifts (in [-31, -1]), or their multiplier 0?  Then the kernels take
 * aot_mve_requant_right: VQRDMULH by 0 makes a lane 0 before any shift, whatever its shift, as the reference's
 * MultiplyByQuantizedMultiplier does (nearly dead channels: a zero multiplier with shift 0 beside right shifts
 * sent whole MobileNet layers down the general path).  With MVE the largest shift four at a time: a layer's scan
 * was about 4 instructions a channel, 500 on 128 channels, as much as a MobileNet 6x6 depthwise block's set-up. */
AOT_HOT_INLINE int aot_mve_all_right(const int32_t* shift, const int32_t* multiplier, int32_t n)
{
    int32_t i = 0;
#if defined(__ARM_FEATURE_MVE)
    int32x4_t top = vdupq_n_s32(-1);
    for (; i + 4 <= n; i += 4) {
        /* min(shift, multiplier - 1): the shift, or -1 where the multiplier is 0 (multipliers lie in {0} U
         * [2^30, 2^31), as aot_mve_requant states). */
        top = vmaxq_s32(top, vminq_s32(vldrwq_s32(shift + i), vsubq_n_s32(vldrwq_s32(multiplier + i), 1)));
    }
    if (vmaxvq_s32(-1, top) >= 0) {
        return 0;
    }
#endif
    for (; i < n; i++) {
        if (shift[i] >= 0 && multiplier[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* Bytes of one im2col row of K taps against out_c channels: K rounded up to 16 (zero-padded) when the block loop
 * reads its tail unpredicated (aot_mve_dot_blocks_tail: K > 16, out_c a multiple of 4), else K.  The compiler
 * sizes the scratch with the same rule (compiler/ops/common/mve_layout.py, mve_row_bytes). */
AOT_HOT_INLINE int32_t aot_mve_row_bytes(int32_t k, int32_t out_c)
{
    return (k > 16 && (k & 15) != 0 && (out_c & 3) == 0) ? (k + 15) & ~15 : k;
}

/* Short runs of im2col and padded bands (unaligned, a few bytes to a few hundred). */
/* n bytes of value at dst. */
AOT_HOT_INLINE void aot_mve_fill(int8_t* dst, int32_t n, int8_t value)
{
#if defined(__ARM_FEATURE_MVE)
    const int8x16_t v = vdupq_n_s8(value);
    for (; n > 0; n -= 16) {
        vstrbq_p_s8(dst, v, vctp8q((uint32_t)n));
        dst += 16;
    }
#else
    memset(dst, (uint8_t)value, (size_t)(n > 0 ? n : 0));
#endif
}

/* n bytes from src to dst. */
AOT_HOT_INLINE void aot_mve_copy(int8_t* dst, const int8_t* src, int32_t n)
{
#if defined(__ARM_FEATURE_MVE)
    for (; n > 0; n -= 16) {
        const mve_pred16_t p = vctp8q((uint32_t)n);
        vstrbq_p_s8(dst, vldrbq_z_s8(src, p), p);
        dst += 16;
        src += 16;
    }
#else
    memcpy(dst, src, (size_t)(n > 0 ? n : 0));
#endif
}

/* Per output channel requantization and the fused residual ADD, if any (add == 0: none).  multiplier and shift
 * hold one value per channel, or one for all when per_channel is 0. */
struct aot_mve_rq {
    const int32_t* bias;
    const int32_t* multiplier;
    const int32_t* shift;
    int32_t per_channel, out_offset, act_min, act_max;
    const struct aot_add_s8_params* add;
    /* MVE, fused ADD: AOT_MVE_ADD_TAB words from aot_mve_add_tables; out_offset, act_min and act_max then carry
     * +128 (the requantized value indexes the first table directly). */
    const int32_t* add_tab;
};

/* Words of the fused ADD's rescaling tables (two of 256). */
#define AOT_MVE_ADD_TAB 512

#if defined(__ARM_FEATURE_MVE)

/* TFLite's MultiplyByQuantizedMultiplier(acc, multiplier, shift) lane by lane, exact for every shift in
 * [-31, 31] and every multiplier in {0} U [2^30, 2^31):
 *  - left = max(shift, 0): acc << left wraps in 32 bits like the reference's int32 product (VSHL by register);
 *  - VQRDMULH is SaturatingRoundingDoublingHighMul exactly (round((2 a m) / 2^32) half up, saturated), including
 *    for negative products: the reference's nudge 1 - 2^30 then truncation towards zero is the same floor;
 *  - r = -min(shift, 0): RoundingDivideByPOT(v, r) rounds v / 2^r half away from zero, VRSHL by -r rounds it half
 *    up; they differ only on negative ties.  For v < 0 and r >= 1, VRSHL of v - 1 gives
 *    floor((v - 1 + 2^(r-1)) / 2^r), which is the reference's result for every negative v (a tie moves down to the
 *    value away from zero; any other v keeps its rounding, since v - 1 crosses no rounding boundary).  With r == 0
 *    nothing is rounded, so the -1 is masked to the lanes with r >= 1 (sign of v AND sign of -r).  The -1 saturates:
 *    only v = INT32_MIN could wrap, and it is a multiple of 2^r, whose rounding needs no fix.
 *  //crt:mve_requant_test checks all of this under QEMU against the CRT's reference arithmetic. */
AOT_HOT_INLINE int32x4_t aot_mve_requant(int32x4_t acc, int32x4_t multiplier, int32x4_t shift)
{
    const int32x4_t zero = vdupq_n_s32(0);
    const int32x4_t right = vminq_s32(shift, zero);
    int32x4_t v = vqrdmulhq_s32(vshlq_s32(acc, vmaxq_s32(shift, zero)), multiplier);
    /* -1 where v < 0 and right < 0 (the sign masks of both), added with saturation. */
    v = vqaddq_s32(v, vandq_s32(vshrq_n_s32(v, 31), vshrq_n_s32(right, 31)));
    return vrshlq_s32(v, right);
}

/* aot_mve_requant for shifts that are all right shifts (every lane's shift in [-31, -1]: what nearly every layer
 * has): no left shift, and the -1 fix-up needs no mask. */
AOT_HOT_INLINE int32x4_t aot_mve_requant_right(int32x4_t acc, int32x4_t multiplier, int32x4_t shift)
{
    int32x4_t v = vqrdmulhq_s32(acc, multiplier);
    v = vqaddq_s32(v, vshrq_n_s32(v, 31));
    return vrshlq_s32(v, shift);
}

/* One input of the fused residual ADD rescaled as aot_add_s8_rescale (add_s8_elem.h) does: there the doubled value
 * x2 = (x + offset) * 2^21 goes through SMMLAR; x2 is even, so round(x2 * m / 2^32) is VQRDMULH of x2 / 2. */
AOT_HOT_INLINE int32x4_t aot_mve_add_rescale(int32x4_t x, int32_t bias, int32_t multiplier, int32_t add,
                                             int32_t right_shift)
{
    const int32x4_t h = vaddq_n_s32(vshlq_n_s32(x, 20), bias >> 1);
    const int32x4_t r = vaddq_s32(vaddq_n_s32(vqrdmulhq_n_s32(h, multiplier), add), vshrq_n_s32(h, 31));
    return vshlq_r_s32(r, -right_shift);
}

/* The output stage of aot_add_s8_elem for 4 lanes of sums of the rescaled inputs. */
AOT_HOT_INLINE int32x4_t aot_mve_add_out(int32x4_t sum, const struct aot_add_s8_params* a)
{
    int32x4_t o = vaddq_s32(vaddq_n_s32(vqrdmulhq_n_s32(sum, a->out_multiplier), a->out_add), vshrq_n_s32(sum, 31));
    o = vshlq_r_s32(o, -a->out_shift);
    return vminq_s32(vmaxq_s32(o, vdupq_n_s32(a->act_min)), vdupq_n_s32(a->act_max));
}

/* Both inputs of the fused ADD take only 256 values, so their rescaled values are tabulated once per layer
 * (gathered per output: one VLDRW instead of seven operations): tab[v + 128] = rescaled conv output v,
 * tab[256 + (uint8_t)r] = rescaled residual element r, bit-exact with aot_mve_add_rescale. */
AOT_HOT_INLINE void aot_mve_add_tables(int32_t* tab, const struct aot_add_s8_params* a)
{
    static const int32_t lanes[4] = {0, 1, 2, 3};
    const int32x4_t base = vld1q_s32(lanes);
    int32_t j;
    for (j = 0; j < 256; j += 4) {
        const int32x4_t x = vaddq_n_s32(base, j - 128);
        vst1q_s32(tab + j, aot_mve_add_rescale(x, a->in1_bias, a->in1_multiplier, a->in1_add, a->in1_shift));
        vst1q_s32(tab + 256 + ((j - 128) & 255),
                  aot_mve_add_rescale(x, a->in2_bias, a->in2_multiplier, a->in2_add, a->in2_shift));
    }
}

/* The requantization constants of up to 4 channels (lanes past n are zero and never stored). */
struct aot_mve_chan {
    int32x4_t bias, multiplier, shift;
    mve_pred16_t p;
};

AOT_ALWAYS_INLINE void aot_mve_chan_load(struct aot_mve_chan* ch, const struct aot_mve_rq* rq, int32_t c, int32_t n)
{
    if (n == 4) {
        /* A whole block (n is a constant at that call site): plain loads. */
        ch->p = 0xFFFF;
        ch->bias = vldrwq_s32(rq->bias + c);
    } else {
        ch->p = vctp32q((uint32_t)n);
        ch->bias = vldrwq_z_s32(rq->bias + c, ch->p);
    }
    if (!rq->per_channel) {
        ch->multiplier = vdupq_n_s32(rq->multiplier[0]);
        ch->shift = vdupq_n_s32(rq->shift[0]);
    } else if (n == 4) {
        ch->multiplier = vldrwq_s32(rq->multiplier + c);
        ch->shift = vldrwq_s32(rq->shift + c);
    } else {
        ch->multiplier = vldrwq_z_s32(rq->multiplier + c, ch->p);
        ch->shift = vldrwq_z_s32(rq->shift + c, ch->p);
    }
}

/* Requantizes, offsets, clamps (and adds the residual) for the channels of ch starting at c; stores them.
 * right: every shift of the layer is a right shift (aot_mve_requant_right). */
AOT_ALWAYS_INLINE void aot_mve_store(int32x4_t acc, int32_t c, const struct aot_mve_chan* ch,
                                     const struct aot_mve_rq* rq, const int8_t* residual, int8_t* out, int fused,
                                     int whole, int right)
{
    int32x4_t v = right ? aot_mve_requant_right(vaddq_s32(acc, ch->bias), ch->multiplier, ch->shift)
                        : aot_mve_requant(vaddq_s32(acc, ch->bias), ch->multiplier, ch->shift);
    v = vaddq_n_s32(v, rq->out_offset);
    v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(rq->act_min)), vdupq_n_s32(rq->act_max));
    if (whole) {
        if (fused) {
            /* v + 128 (see add_tab) and the residual's byte index the tables. */
            v = aot_mve_add_out(vaddq_s32(vldrwq_gather_shifted_offset_s32(rq->add_tab, vreinterpretq_u32_s32(v)),
                                          vldrwq_gather_shifted_offset_s32(rq->add_tab + 256,
                                                                           vldrbq_u32((const uint8_t*)residual + c))),
                                rq->add);
        }
        vstrbq_s32(out + c, v);
    } else {
        if (fused) {
            /* Lanes past n: v within [0, 255] after the clamp, the residual loaded as 0; neither is stored. */
            v = aot_mve_add_out(vaddq_s32(vldrwq_gather_shifted_offset_s32(rq->add_tab, vreinterpretq_u32_s32(v)),
                                          vldrwq_gather_shifted_offset_s32(
                                              rq->add_tab + 256, vldrbq_z_u32((const uint8_t*)residual + c, ch->p))),
                                rq->add);
        }
        vstrbq_p_s32(out + c, v, ch->p);
    }
}

/* The eight accumulators of the loops of 2 pixels x 4 channels below (ra*: pixel 0, rb*: pixel 1), pinned to r0,
 * r2, ..., r12 and lr: VMLADAVA takes even registers only, and GCC alone spills one of the eight.  INIT: nothing, or
 * an initializer. */
#define AOT_MVE_PINNED_ACCS(INIT)                                                                                      \
    register int32_t ra0 __asm__("r0") INIT;                                                                           \
    register int32_t ra1 __asm__("r2") INIT;                                                                           \
    register int32_t ra2 __asm__("r4") INIT;                                                                           \
    register int32_t ra3 __asm__("r6") INIT;                                                                           \
    register int32_t rb0 __asm__("r8") INIT;                                                                           \
    register int32_t rb1 __asm__("r10") INIT;                                                                          \
    register int32_t rb2 __asm__("r12") INIT;                                                                          \
    register int32_t rb3 __asm__("lr") INIT

/* Those accumulators as the operands %[a0]..%[a3], %[b0]..%[b3] of an asm statement, with constraint C.  Pinned in
 * ascending order, a block's eight sums (pixel 0's 4 channels, then pixel 1's) are stored by one STMIA of
 * {%[a0], ..., %[b3]} (one instruction where four STRD took four; its base register is never an accumulator). */
#define AOT_MVE_ACC_OPERANDS(C)                                                                                        \
    [a0] C(ra0), [a1] C(ra1), [a2] C(ra2), [a3] C(ra3), [b0] C(rb0), [b1] C(rb1), [b2] C(rb2), [b3] C(rb3)

/* OP (VMLADAV sets, VMLADAVA adds) of the input vector X against the weight vectors q0..q3 into the accumulators
 * %[ACC0]..%[ACC3]. */
#define AOT_MVE_DOT4(OP, ACC, X)                                                                                       \
    OP " %[" ACC "0], " X ", q0\n\t" OP " %[" ACC "1], " X ", q1\n\t" OP " %[" ACC "2], " X ", q2\n\t" OP " %[" ACC    \
       "3], " X ", q3\n\t"

/* The next 16 weights of each of the block's 4 channels (64 bytes) into q0..q3. */
#define AOT_MVE_LOAD_W16                                                                                               \
    "vldrb.8 q1, [%[w], #16]\n\t"                                                                                      \
    "vldrb.8 q2, [%[w], #32]\n\t"                                                                                      \
    "vldrb.8 q3, [%[w], #48]\n\t"                                                                                      \
    "vldrb.8 q0, [%[w]], #64\n\t"

/* One pass of 16 taps of both pixels against the 4 channels (VMLADAVA, or OP). */
#define AOT_MVE_PASS(OP)                                                                                               \
    AOT_MVE_LOAD_W16 "vldrb.8 q4, [%[x0]], #16\n\t" AOT_MVE_DOT4(                                                      \
        OP, "a", "q4") "vldrb.8 q5, [%[x1]], #16\n\t" AOT_MVE_DOT4(OP, "b", "q5")
/* The first pass (its VMLADAV sets the sums) and the others (VMLADAVA adds to them). */
#define AOT_MVE_PASS_SET AOT_MVE_PASS("vmladav.s8")
#define AOT_MVE_PASS_ADD AOT_MVE_PASS("vmladava.s8")

/* 2 pixels x 4 channels, N (>= 1) passes of 16 taps, into the accumulators ra0..ra3 / rb0..rb3 (AOT_MVE_PINNED_ACCS);
 * the loop counts with SUBS/BNE (lr holds an accumulator).  Only for optimised builds (unoptimised ones keep a frame
 * pointer). */
#define AOT_MVE_DOT4X2_LOOP(X0, X1, W, N)                                                                              \
    __asm__ volatile("1:\n\t" AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"                                               \
                     "bne 1b"                                                                                          \
                     : AOT_MVE_ACC_OPERANDS("+r"), [x0] "+r"(X0), [x1] "+r"(X1), [w] "+r"(W), [n] "+r"(N)              \
                     :                                                                                                 \
                     : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc")

#if defined(__OPTIMIZE__)
/* What aot_mve_dot_blocks reads and updates in memory (its loop has no general register left for them). */
struct aot_mve_blocks_args {
    const int8_t* x0;
    const int8_t* x1;
    int32_t passes, blocks;
    int32_t* sums;
    int32_t skip, runs;
    int32_t tail;   /* aot_mve_dot_blocks_tail: K % 16 */
    int32_t groups; /* aot_mve_dot_blocks_runs3: groups of 3 passes per run */
};

/* The pass over the K % 16 tail taps of aot_mve_dot_blocks_tail(1): each of the block's 4 channels' tail (%[t] bytes
 * apart, leading the block) into q0..q3, 16 bytes each (the bytes past a tail are still the block's own). */
#define AOT_MVE_LOAD_TAILS                                                                                             \
    "vldrb.8 q0, [%[w]]\n\t"                                                                                           \
    "add %[w], %[w], %[t]\n\t"                                                                                         \
    "vldrb.8 q1, [%[w]]\n\t"                                                                                           \
    "add %[w], %[w], %[t]\n\t"                                                                                         \
    "vldrb.8 q2, [%[w]]\n\t"                                                                                           \
    "add %[w], %[w], %[t]\n\t"                                                                                         \
    "vldrb.8 q3, [%[w]]\n\t"                                                                                           \
    "add %[w], %[w], %[t]\n\t"

/* Before the first block of aot_mve_dot_blocks(_tail): a.blocks turned into the end of the sums (a.sums + 8 *
 * a.blocks words), so that a block ends on a compare, not a count kept in memory. */
#define AOT_MVE_SUMS_END                                                                                               \
    "ldr %[n], [%[a], #16]\n\t"                                                                                        \
    "ldr %[x0], [%[a], #12]\n\t"                                                                                       \
    "add.w %[x0], %[n], %[x0], lsl #5\n\t"                                                                             \
    "str %[x0], [%[a], #12]\n\t"

/* The end of a block of aot_mve_dot_blocks(_tail): its eight sums stored at a.sums (which moves on), then the next
 * block from label 2 until a.sums reaches the end (AOT_MVE_SUMS_END). */
#define AOT_MVE_NEXT_BLOCK                                                                                             \
    "ldr %[n], [%[a], #16]\n\t"                                                                                        \
    "stmia %[n]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"                                        \
    "str %[n], [%[a], #16]\n\t"                                                                                        \
    "ldr %[x0], [%[a], #12]\n\t"                                                                                       \
    "cmp %[n], %[x0]\n\t"                                                                                              \
    "bne 2b"

/* Two pixels against a.blocks blocks of 4 channels (no K tail), in one loop.  A pixel's K taps are a.runs runs of
 * 16 * a.passes bytes, a.skip bytes apart (a convolution's filter rows read in place; one run: a plain row).  The
 * eight sums of a block (pixel 0's 4 channels, then pixel 1's) are stored as words at a.sums, 8 per block.  The
 * accumulators stay pinned to r0, r2, ..., r12 and lr across the blocks (per block only the rows are re-read),
 * where a loop of one block per call spilled and reloaded the caller's values around every block. */
#if !defined(AOT_MVE_CONV_DECLARE)
static void aot_mve_dot_blocks(struct aot_mve_blocks_args* a, const int8_t* w)
{
    AOT_MVE_PINNED_ACCS();
    const int8_t* x0;
    const int8_t* x1;
    int32_t n, r;
    __asm__ volatile(
        AOT_MVE_SUMS_END "2:\n\t"
                         "ldr %[x0], [%[a]]\n\t"
                         "ldr %[x1], [%[a], #4]\n\t"
                         "ldr %[r], [%[a], #24]\n\t"
                         "ldr %[n], [%[a], #8]\n\t" AOT_MVE_PASS_SET "subs %[n], %[n], #1\n\t"
                         "beq 4f\n\t"
                         "1:\n\t" AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"
                         "bne 1b\n\t"
                         "4:\n\t"
                         "subs %[r], %[r], #1\n\t"
                         "beq 3f\n\t"
                         "ldr %[n], [%[a], #20]\n\t"
                         "add %[x0], %[x0], %[n]\n\t"
                         "add %[x1], %[x1], %[n]\n\t"
                         "ldr %[n], [%[a], #8]\n\t"
                         "5:\n\t" AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"
                         "bne 5b\n\t"
                         "b 4b\n\t"
                         "3:\n\t" AOT_MVE_NEXT_BLOCK
        : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [r] "=&r"(r), [w] "+r"(w)
        : [a] "r"(a)
        : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");
}
#endif

/* aot_mve_dot_blocks for one run per pixel (a plain row: a 1x1 convolution's input, an im2col row), where the
 * run counter's register holds the sums' pointer and a.blocks is turned into the end of the sums: per block 9
 * instructions besides the passes and their loop, where aot_mve_dot_blocks takes 17 (KWS's pointwise layers: 16
 * blocks a pixel pair). */
#if defined(AOT_MVE_CONV_DECLARE)
void aot_mve_dot_blocks_row(struct aot_mve_blocks_args* a, const int8_t* w);
#else
AOT_MVE_SHARED void aot_mve_dot_blocks_row(struct aot_mve_blocks_args* a, const int8_t* w)
{
    AOT_MVE_PINNED_ACCS();
    const int8_t* x0;
    const int8_t* x1;
    int32_t n;
    int32_t* s;
    __asm__ volatile(
        "ldr %[s], [%[a], #16]\n\t"
        "ldr %[n], [%[a], #12]\n\t"
        "add.w %[n], %[s], %[n], lsl #5\n\t"
        "str %[n], [%[a], #12]\n\t"
        "2:\n\t"
        "ldr %[x0], [%[a]]\n\t"
        "ldr %[x1], [%[a], #4]\n\t"
        "ldr %[n], [%[a], #8]\n\t" AOT_MVE_PASS_SET "subs %[n], %[n], #1\n\t"
        "beq 4f\n\t"
        "1:\n\t" AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"
        "bne 1b\n\t"
        "4:\n\t"
        "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"
        "ldr %[n], [%[a], #12]\n\t"
        "cmp %[s], %[n]\n\t"
        "bne 2b"
        : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [s] "=&r"(s), [w] "+r"(w)
        : [a] "r"(a)
        : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");
}
#endif

/* aot_mve_dot_blocks_row for rows of exactly 2 or 4 passes (K = 32, 64: KWS's and MobileNet's pointwise layers),
 * the passes straight-line: no pass counter, no loop branch (8 instructions less per block for K = 64). */
#if defined(AOT_MVE_CONV_DECLARE)
#define AOT_MVE_DOT_BLOCKS_ROW_N(NAME, PASSES) void NAME(struct aot_mve_blocks_args* a, const int8_t* w);
#else
#define AOT_MVE_DOT_BLOCKS_ROW_N(NAME, PASSES)                                                                         \
    AOT_MVE_SHARED void NAME(struct aot_mve_blocks_args* a, const int8_t* w)                                           \
    {                                                                                                                  \
        AOT_MVE_PINNED_ACCS();                                                                                         \
        const int8_t* x0;                                                                                              \
        const int8_t* x1;                                                                                              \
        int32_t n;                                                                                                     \
        int32_t* s;                                                                                                    \
        __asm__ volatile(                                                                                              \
            "ldr %[s], [%[a], #16]\n\t"                                                                                \
            "ldr %[n], [%[a], #12]\n\t"                                                                                \
            "add.w %[n], %[s], %[n], lsl #5\n\t"                                                                       \
            "2:\n\t"                                                                                                   \
            "ldr %[x0], [%[a]]\n\t"                                                                                    \
            "ldr %[x1], [%[a], #4]\n\t" AOT_MVE_PASS_SET PASSES                                                        \
            "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"                                \
            "cmp %[s], %[n]\n\t"                                                                                       \
            "bne 2b"                                                                                                   \
            : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [s] "=&r"(s), [w] "+r"(w)     \
            : [a] "r"(a)                                                                                               \
            : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");                                                     \
    }
#endif
AOT_MVE_DOT_BLOCKS_ROW_N(aot_mve_dot_blocks_row2, AOT_MVE_PASS_ADD)
AOT_MVE_DOT_BLOCKS_ROW_N(aot_mve_dot_blocks_row4, AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD)

/* aot_mve_dot_blocks for three runs of 3 or 6 passes each (a 3x3 convolution's filter rows on 16 or 32 channels read
 * in place: ResNet-8's 16- and 32-channel layers), straight-line: the skip between runs held in a register, the
 * end of the sums in a.blocks; per block 12 instructions besides the passes, where the pass and run loops of
 * aot_mve_dot_blocks take about 42. REST: the passes after a run's first.  Only where a file asks for them
 * (AOT_MVE_RUNS3 defined before including this header: conv2d_s8_mve.c), 1.6 KB of code the others never call. */
#if defined(AOT_MVE_RUNS3)
#define AOT_MVE_NEXT_RUN                                                                                               \
    "add %[x0], %[x0], %[n]\n\t"                                                                                       \
    "add %[x1], %[x1], %[n]\n\t"
#if defined(AOT_MVE_CONV_DECLARE)
#define AOT_MVE_DOT_BLOCKS_RUNS3_N(NAME, REST) void NAME(struct aot_mve_blocks_args* a, const int8_t* w);
#else
#define AOT_MVE_DOT_BLOCKS_RUNS3_N(NAME, REST)                                                                         \
    __attribute__((noinline)) AOT_MVE_SHARED void NAME(struct aot_mve_blocks_args* a, const int8_t* w)                 \
    {                                                                                                                  \
        AOT_MVE_PINNED_ACCS();                                                                                         \
        const int8_t* x0;                                                                                              \
        const int8_t* x1;                                                                                              \
        int32_t n;                                                                                                     \
        int32_t* s;                                                                                                    \
        __asm__ volatile(                                                                                              \
            "ldr %[s], [%[a], #16]\n\t"                                                                                \
            "ldr %[n], [%[a], #12]\n\t"                                                                                \
            "add.w %[n], %[s], %[n], lsl #5\n\t"                                                                       \
            "str %[n], [%[a], #12]\n\t"                                                                                \
            "2:\n\t"                                                                                                   \
            "ldr %[x0], [%[a]]\n\t"                                                                                    \
            "ldr %[x1], [%[a], #4]\n\t"                                                                                \
            "ldr %[n], [%[a], #20]\n\t" AOT_MVE_PASS_SET REST AOT_MVE_NEXT_RUN AOT_MVE_PASS_ADD REST AOT_MVE_NEXT_RUN  \
                AOT_MVE_PASS_ADD REST "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"      \
            "ldr %[n], [%[a], #12]\n\t"                                                                                \
            "cmp %[s], %[n]\n\t"                                                                                       \
            "bne 2b"                                                                                                   \
            : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [s] "=&r"(s), [w] "+r"(w)     \
            : [a] "r"(a)                                                                                               \
            : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");                                                     \
    }
#endif
AOT_MVE_DOT_BLOCKS_RUNS3_N(aot_mve_dot_blocks_runs3p3, AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD)
AOT_MVE_DOT_BLOCKS_RUNS3_N(aot_mve_dot_blocks_runs3p6,
                           AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD)

/* Three runs of 3 * a.groups passes (a.groups >= 2: 3x3 filters on 32, 48, 64 ... channels), the passes of a run in
 * groups of 3 straight-line: the loop's count and branch once per 3 passes, not per pass. */
#define AOT_MVE_PASS3_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD
#define AOT_MVE_RUN3_LOOP(L)                                                                                           \
    "ldr %[n], [%[a], #20]\n\t" AOT_MVE_NEXT_RUN "ldr %[n], [%[a], #32]\n\t" L ":\n\t" AOT_MVE_PASS3_ADD               \
    "subs %[n], %[n], #1\n\t"                                                                                          \
    "bne " L "b\n\t"
#if defined(AOT_MVE_CONV_DECLARE)
void aot_mve_dot_blocks_runs3(struct aot_mve_blocks_args* a, const int8_t* w);
#else
__attribute__((noinline)) AOT_MVE_SHARED void aot_mve_dot_blocks_runs3(struct aot_mve_blocks_args* a, const int8_t* w)
{
    AOT_MVE_PINNED_ACCS();
    const int8_t* x0;
    const int8_t* x1;
    int32_t n;
    int32_t* s;
    __asm__ volatile(
        "ldr %[s], [%[a], #16]\n\t"
        "ldr %[n], [%[a], #12]\n\t"
        "add.w %[n], %[s], %[n], lsl #5\n\t"
        "str %[n], [%[a], #12]\n\t"
        "2:\n\t"
        "ldr %[x0], [%[a]]\n\t"
        "ldr %[x1], [%[a], #4]\n\t"
        "ldr %[n], [%[a], #32]\n\t" AOT_MVE_PASS_SET AOT_MVE_PASS_ADD AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"
        "1:\n\t" AOT_MVE_PASS3_ADD "subs %[n], %[n], #1\n\t"
        "bne 1b\n\t" AOT_MVE_RUN3_LOOP("5")
            AOT_MVE_RUN3_LOOP("6") "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"
                                   "ldr %[n], [%[a], #12]\n\t"
                                   "cmp %[s], %[n]\n\t"
                                   "bne 2b"
        : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [s] "=&r"(s), [w] "+r"(w)
        : [a] "r"(a)
        : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");
}
#endif
#endif

/* aot_mve_dot_blocks, or aot_mve_dot_blocks_runs3 for three runs of a multiple of 3 passes each where a file asks
 * for it: out of line, so the pixel loops that inline aot_mve_gemm_k16 keep one call. */
#if defined(AOT_MVE_CONV_DECLARE)
void aot_mve_dot_blocks_any(struct aot_mve_blocks_args* a, const int8_t* w);
#else
__attribute__((noinline)) AOT_MVE_SHARED void aot_mve_dot_blocks_any(struct aot_mve_blocks_args* a, const int8_t* w)
{
#if defined(AOT_MVE_RUNS3)
    if (a->runs == 3 && a->passes >= 6 && a->passes % 3 == 0) {
        a->groups = a->passes / 3;
        aot_mve_dot_blocks_runs3(a, w);
        return;
    }
#endif
    aot_mve_dot_blocks(a, w);
}
#endif
#if defined(AOT_MVE_RUNS3)
#endif

/* The tail pass of aot_mve_dot_blocks_tail: the rows' first 16 bytes at x0, x1 (not moved on) against the tails. */
#define AOT_MVE_TAIL_PASS                                                                                              \
    AOT_MVE_LOAD_TAILS "vldrb.8 q4, [%[x0]]\n\t" AOT_MVE_DOT4(                                                         \
        "vmladav.s8", "a", "q4") "vldrb.8 q5, [%[x1]]\n\t" AOT_MVE_DOT4("vmladav.s8", "b", "q5")

/* aot_mve_dot_blocks for rows of K = 16 * a.passes + a.tail taps (0 < a.tail < 16, a.passes >= 1, one run each),
 * zero-padded to 16 * (a.passes + 1) bytes: per block the tail pass comes first, unpredicated -- the lanes past K
 * multiply the padding's zeros by the bytes that follow a channel's tail, which are still the block's own (the
 * tails lead the block and K >= 16) -- then the a.passes whole passes. */
static void aot_mve_dot_blocks_tail(struct aot_mve_blocks_args* a, const int8_t* w)
{
    AOT_MVE_PINNED_ACCS();
    const int8_t* x0;
    const int8_t* x1;
    int32_t n, t;
    __asm__ volatile(
        "ldr %[t], [%[a], #28]\n\t" AOT_MVE_SUMS_END "2:\n\t"
        "ldr %[x0], [%[a]]\n\t"
        "ldr %[x1], [%[a], #4]\n\t"
        "ldr %[n], [%[a], #8]\n\t"
        "add.w %[x0], %[x0], %[n], lsl #4\n\t"
        "add.w %[x1], %[x1], %[n], lsl #4\n\t" AOT_MVE_TAIL_PASS "ldr %[x0], [%[a]]\n\t"
        "ldr %[x1], [%[a], #4]\n\t"
        "1:\n\t" AOT_MVE_PASS_ADD "subs %[n], %[n], #1\n\t"
        "bne 1b\n\t" AOT_MVE_NEXT_BLOCK
        : AOT_MVE_ACC_OPERANDS("=&r"), [x0] "=&r"(x0), [x1] "=&r"(x1), [n] "=&r"(n), [t] "=&r"(t), [w] "+r"(w)
        : [a] "r"(a)
        : "q0", "q1", "q2", "q3", "q4", "q5", "memory", "cc");
}

/* The block of aot_mve_dot_blocks_tail1: the tail pass against the rows' first vectors, held in q6 and q7, then
 * the whole pass against their second, in q4 and q5. */
/* aot_mve_dot_blocks_tail for a.passes == 1 (16 < K < 32: 3x3 taps on 3 channels, 5x5 on one): both rows, two
 * vectors each, stay in q4..q7 across the blocks, which leaves the sums' pointer and the block count in
 * registers.  LOAD_TAILS: the 4 channels' tails into q0..q3 (AOT_MVE_LOAD_TAILS, or for K = 27 -- an RGB image's
 * 3x3 stem -- AOT_MVE_LOAD_TAILS11: 11 bytes apart by immediate post-increments, 4 instructions less a block).
 * Out of line: a unit calling each once (conv2d_s8_mve.c's first-layer form, the padded-row pass being
 * conv2d_s8_mve_tail.c's) would inline its asm into the pair loop, whose registers then spill (ResNet-8's stem 6 %
 * slower at -Os). */
#define AOT_MVE_LOAD_TAILS11                                                                                           \
    "vldrb.8 q0, [%[w]], #11\n\t"                                                                                      \
    "vldrb.8 q1, [%[w]], #11\n\t"                                                                                      \
    "vldrb.8 q2, [%[w]], #11\n\t"                                                                                      \
    "vldrb.8 q3, [%[w]], #11\n\t"
#define AOT_MVE_DOT_BLOCKS_TAIL1(NAME, LOAD_TAILS)                                                                     \
    __attribute__((noinline)) static void NAME(struct aot_mve_blocks_args* a, const int8_t* w)                         \
    {                                                                                                                  \
        AOT_MVE_PINNED_ACCS();                                                                                         \
        int32_t* s;                                                                                                    \
        const int8_t* x1;                                                                                              \
        int32_t n, t;                                                                                                  \
        __asm__ volatile(                                                                                              \
            "ldr %[t], [%[a], #28]\n\t"                                                                                \
            "ldr %[s], [%[a]]\n\t"                                                                                     \
            "ldr %[x1], [%[a], #4]\n\t"                                                                                \
            "vldrb.8 q4, [%[s]]\n\t"                                                                                   \
            "vldrb.8 q6, [%[s], #16]\n\t"                                                                              \
            "vldrb.8 q5, [%[x1]]\n\t"                                                                                  \
            "vldrb.8 q7, [%[x1], #16]\n\t"                                                                             \
            "ldr %[n], [%[a], #12]\n\t"                                                                                \
            "ldr %[s], [%[a], #16]\n\t"                                                                                \
            "2:\n\t" LOAD_TAILS AOT_MVE_DOT4("vmladav.s8", "a", "q6") AOT_MVE_DOT4("vmladav.s8", "b", "q7")            \
                AOT_MVE_LOAD_W16 AOT_MVE_DOT4("vmladava.s8", "a", "q4")                                                \
                    AOT_MVE_DOT4("vmladava.s8", "b",                                                                   \
                                 "q5") "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"     \
                                       "subs %[n], %[n], #1\n\t"                                                       \
                                       "bne 2b"                                                                        \
            : AOT_MVE_ACC_OPERANDS("=&r"), [s] "=&r"(s), [x1] "=&r"(x1), [n] "=&r"(n), [t] "=&r"(t), [w] "+r"(w)       \
            : [a] "r"(a)                                                                                               \
            : "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");                                         \
    }
AOT_MVE_DOT_BLOCKS_TAIL1(aot_mve_dot_blocks_tail1, AOT_MVE_LOAD_TAILS)
AOT_MVE_DOT_BLOCKS_TAIL1(aot_mve_dot_blocks_tail1_k27, AOT_MVE_LOAD_TAILS11)

/* Channel blocks per aot_mve_dot_blocks call: their sums wait on the stack for the requantization (8 words a block).
 * 16: one call per pixel pair up to 64 output channels (KWS, MobileNet's 64-channel layers); a file may define a
 * smaller count before including this header to keep its frame small (fully_connected_s8_mve.c: 8). */
#ifndef AOT_MVE_BLOCKS
#define AOT_MVE_BLOCKS 16
#endif

/* The requantization of one block of 4 channels for both pixels of a pair (bias, VQRDMULH, rounding right shift,
 * output offset, clamp) into q3 / q4, at the head of a loop labelled 1: the two asm loops below share it and differ in
 * where the results go.  Operands: %[b] %[m] %[sh] (post-incremented constants), %[s] (sums, post-incremented by 32),
 * %[off], %[lo], %[hi]; clobbers q0-q4. */
#define AOT_MVE_RQ_PAIR_ASM                                                                                            \
    "1:\n\t"                                                                                                           \
    "vldrw.32 q0, [%[b]], #16\n\t"                                                                                     \
    "vldrw.32 q3, [%[s]], #16\n\t"                                                                                     \
    "vldrw.32 q4, [%[s]], #16\n\t"                                                                                     \
    "vldrw.32 q1, [%[m]], #16\n\t"                                                                                     \
    "vadd.i32 q3, q3, q0\n\t"                                                                                          \
    "vadd.i32 q4, q4, q0\n\t"                                                                                          \
    "vldrw.32 q2, [%[sh]], #16\n\t"                                                                                    \
    "vqrdmulh.s32 q3, q3, q1\n\t"                                                                                      \
    "vqrdmulh.s32 q4, q4, q1\n\t"                                                                                      \
    "vshr.s32 q0, q3, #31\n\t"                                                                                         \
    "vshr.s32 q1, q4, #31\n\t"                                                                                         \
    "vqadd.s32 q3, q3, q0\n\t"                                                                                         \
    "vqadd.s32 q4, q4, q1\n\t"                                                                                         \
    "vrshl.s32 q3, q3, q2\n\t"                                                                                         \
    "vrshl.s32 q4, q4, q2\n\t"                                                                                         \
    "vadd.i32 q3, q3, %[off]\n\t"                                                                                      \
    "vadd.i32 q4, q4, %[off]\n\t"                                                                                      \
    "vmax.s32 q3, q3, %q[lo]\n\t"                                                                                      \
    "vmax.s32 q4, q4, %q[lo]\n\t"                                                                                      \
    "vmin.s32 q3, q3, %q[hi]\n\t"                                                                                      \
    "vmin.s32 q4, q4, %q[hi]\n\t"

/* The requantization of nb blocks of 4 channels of a pixel pair's sums (right shifts, per-channel constants from b,
 * m and sh, no fused ADD), offset by off, clamped to lo..hi and stored at o0 and o1: one asm loop of 25 instructions
 * per block (both pixels; VSTRB.32 takes a low base register: "l").  The callers make the constants once per call
 * (aot_mve_store_blocks_right) or once per run of pairs (conv2d_s8_mve.c).  Why not C: GCC 12 kept that loop's
 * invariants (the output offset, the channel count that placed the second pixel's output) on the stack at -Os and
 * reloaded them per block, 8 to 12 instructions more than at -O2 (ResNet-8 on the M55 at 3.00 M instructions
 * against 2.90 M). */
AOT_ALWAYS_INLINE void aot_mve_rq_pair_blocks(const int32_t* sums, int32_t nb, const int32_t* b, const int32_t* m,
                                              const int32_t* sh, int32_t off, int32x4_t lo, int32x4_t hi, int8_t* o0,
                                              int8_t* o1)
{
    __asm__ volatile(
        AOT_MVE_RQ_PAIR_ASM "vstrb.32 q3, [%[o0]], #4\n\t"
                            "vstrb.32 q4, [%[o1]], #4\n\t"
                            "subs %[n], %[n], #1\n\t"
                            "bne 1b"
        : [s] "+r"(sums), [b] "+r"(b), [m] "+r"(m), [sh] "+r"(sh), [o0] "+l"(o0), [o1] "+l"(o1), [n] "+r"(nb)
        : [off] "r"(off), [lo] "w"(lo), [hi] "w"(hi)
        : "q0", "q1", "q2", "q3", "q4", "memory", "cc");
}

/* aot_mve_rq_pair_blocks for aot_mve_gemm_k16's sums: nb blocks from channel c, stored at out0 + c and out1 + c. */
AOT_ALWAYS_INLINE void aot_mve_store_blocks_right(const int32_t* sums, int32_t nb, const struct aot_mve_rq* q,
                                                  int32_t c, int8_t* out0, int8_t* out1)
{
    const int32x4_t lo = vdupq_n_s32(q->act_min);
    const int32x4_t hi = vdupq_n_s32(q->act_max);
    aot_mve_rq_pair_blocks(sums, nb, q->bias + c, q->multiplier + c, q->shift + c, q->out_offset, lo, hi, out0 + c,
                           out1 + c);
}

/* The fused residual ADD after the requantization of a pixel pair's channel blocks, right shifts, per-channel
 * constants: two asm loops, each with few enough general registers for every inlining context (LTO included).
 * aot_mve_index_blocks_right requantizes nb blocks of both pixels' sums from channel c and writes each value
 * v + 128 (see add_tab), clamped, back over its sum: 25 instructions per block.  aot_mve_add_blocks then takes one
 * pixel (its values 8 words apart): v and the residual byte + 256 (VORR: the byte is below 256) index the tables,
 * then aot_mve_add_out, stored at out + c: 16 instructions per block and pixel, where the C form of
 * aot_mve_store took about 45 per block and pixel (its constants re-made per block).  The residual's 4 bytes are
 * read before the 4 outputs at the same place are stored (in place is allowed). */
AOT_ALWAYS_INLINE void aot_mve_index_blocks_right(int32_t* sums, int32_t nb, const struct aot_mve_rq* q, int32_t c)
{
    const int32_t* b = q->bias + c;
    const int32_t* m = q->multiplier + c;
    const int32_t* sh = q->shift + c;
    const int32x4_t lo = vdupq_n_s32(q->act_min);
    const int32x4_t hi = vdupq_n_s32(q->act_max);
    __asm__ volatile(AOT_MVE_RQ_PAIR_ASM "vstrw.32 q3, [%[s], #-32]\n\t"
                                         "vstrw.32 q4, [%[s], #-16]\n\t"
                                         "subs %[n], %[n], #1\n\t"
                                         "bne 1b"
                     : [s] "+r"(sums), [b] "+r"(b), [m] "+r"(m), [sh] "+r"(sh), [n] "+r"(nb)
                     : [off] "r"(q->out_offset), [lo] "w"(lo), [hi] "w"(hi)
                     : "q0", "q1", "q2", "q3", "q4", "memory", "cc");
}

AOT_ALWAYS_INLINE void aot_mve_add_blocks(const int32_t* idx, int32_t nb, const struct aot_mve_rq* q, int32_t c,
                                          int8_t* out, const int8_t* res)
{
    int8_t* o = out + c;
    const uint8_t* r = (const uint8_t*)res + c;
    const struct aot_add_s8_params* a = q->add;
    const int32x4_t lo = vdupq_n_s32(a->act_min);
    const int32x4_t hi = vdupq_n_s32(a->act_max);
    __asm__ volatile("1:\n\t"
                     "vldrw.32 q1, [%[s]], #32\n\t"
                     "vldrb.u32 q2, [%[r]], #4\n\t"
                     "vorr.i32 q2, #0x100\n\t"
                     "vldrw.u32 q0, [%[tab], q1, uxtw #2]\n\t"
                     "vldrw.u32 q1, [%[tab], q2, uxtw #2]\n\t"
                     "vadd.i32 q0, q0, q1\n\t"
                     "vshr.s32 q1, q0, #31\n\t"
                     "vqrdmulh.s32 q0, q0, %[om]\n\t"
                     "vadd.i32 q0, q0, q1\n\t"
                     "vadd.i32 q0, q0, %[oa]\n\t"
                     "vshl.s32 q0, %[osh]\n\t"
                     "vmax.s32 q0, q0, %q[lo]\n\t"
                     "vmin.s32 q0, q0, %q[hi]\n\t"
                     "vstrb.32 q0, [%[o]], #4\n\t"
                     "subs %[n], %[n], #1\n\t"
                     "bne 1b"
                     : [s] "+r"(idx), [o] "+l"(o), [r] "+l"(r), [n] "+r"(nb)
                     : [lo] "w"(lo), [hi] "w"(hi), [tab] "r"(q->add_tab), [om] "r"(a->out_multiplier),
                       [oa] "r"(a->out_add), [osh] "r"(-a->out_shift)
                     : "q0", "q1", "q2", "memory", "cc");
}

/* Blocks of 4 channels per aot_mve_gemv call (their sums wait on the stack for the requantization). */
#define AOT_MVE_GEMV_BLOCKS 16

/* One pixel (a fully connected layer's single row) against nb blocks of 4 channels, K = 16 * passes taps (no
 * tail): the block's 4 sums stored at sums, 4 per block.  The accumulators are pinned to even registers (VMLADAVA)
 * and the passes run as a low-overhead loop (WLS/LE): 10 instructions per 64 MACs and 5 per block, where
 * aot_mve_dot4 took about 30 per block (its sums moved to a vector lane by lane, the requantization constants
 * re-made per block).  Defined once, by mve_dot_blocks1.c, and only declared here: the convolution's and the fully
 * connected layer's units both call it, and a static copy in each cost an image with both 112 B at -Os. */
void aot_mve_dot_blocks1(const int8_t* x, const int8_t* w, int32_t passes, int32_t nb, int32_t* sums);

/* The requantization of nb blocks of one pixel's sums (4 per block) from channel c, right shifts, no fused ADD,
 * stored at out + c: 13 instructions per block; PER_CHANNEL: multipliers and shifts loaded per block, else one
 * for all (VQRDMULH and VRSHL by a scalar register). */
#define AOT_MVE_STORE1_HEAD                                                                                            \
    "1:\n\t"                                                                                                           \
    "vldrw.32 q0, [%[b]], #16\n\t"                                                                                     \
    "vldrw.32 q1, [%[s]], #16\n\t"                                                                                     \
    "vadd.i32 q1, q1, q0\n\t"
#define AOT_MVE_STORE1_TAIL                                                                                            \
    "vadd.i32 q1, q1, %[off]\n\t"                                                                                      \
    "vmax.s32 q1, q1, %q[lo]\n\t"                                                                                      \
    "vmin.s32 q1, q1, %q[hi]\n\t"                                                                                      \
    "vstrb.32 q1, [%[o]], #4\n\t"                                                                                      \
    "subs %[n], %[n], #1\n\t"                                                                                          \
    "bne 1b"

AOT_ALWAYS_INLINE void aot_mve_store_blocks1_right(const int32_t* sums, int32_t nb, const struct aot_mve_rq* q,
                                                   int32_t c, int8_t* out)
{
    const int32_t* b = q->bias + c;
    int8_t* o = out + c;
    const int32x4_t lo = vdupq_n_s32(q->act_min);
    const int32x4_t hi = vdupq_n_s32(q->act_max);
    if (q->per_channel) {
        const int32_t* m = q->multiplier + c;
        const int32_t* sh = q->shift + c;
        __asm__ volatile(AOT_MVE_STORE1_HEAD "vldrw.32 q2, [%[m]], #16\n\t"
                                             "vldrw.32 q3, [%[sh]], #16\n\t"
                                             "vqrdmulh.s32 q1, q1, q2\n\t"
                                             "vshr.s32 q0, q1, #31\n\t"
                                             "vqadd.s32 q1, q1, q0\n\t"
                                             "vrshl.s32 q1, q1, q3\n\t" AOT_MVE_STORE1_TAIL
                         : [s] "+r"(sums), [b] "+r"(b), [m] "+r"(m), [sh] "+r"(sh), [o] "+l"(o), [n] "+r"(nb)
                         : [off] "r"(q->out_offset), [lo] "w"(lo), [hi] "w"(hi)
                         : "q0", "q1", "q2", "q3", "memory", "cc");
    } else {
        __asm__ volatile(
            AOT_MVE_STORE1_HEAD "vqrdmulh.s32 q1, q1, %[mul]\n\t"
                                "vshr.s32 q0, q1, #31\n\t"
                                "vqadd.s32 q1, q1, q0\n\t"
                                "vrshl.s32 q1, %[sh]\n\t" AOT_MVE_STORE1_TAIL
            : [s] "+r"(sums), [b] "+r"(b), [o] "+l"(o), [n] "+r"(nb)
            : [off] "r"(q->out_offset), [lo] "w"(lo), [hi] "w"(hi), [mul] "r"(q->multiplier[0]), [sh] "r"(q->shift[0])
            : "q0", "q1", "memory", "cc");
    }
}

/* One pixel (x: K inputs) against the whole blocks of 4 channels, right shifts, no fused ADD, K a multiple of 16
 * or below 16 (one predicated vector: an encoder's narrow layer): the sums of up to AOT_MVE_GEMV_BLOCKS blocks,
 * then their requantization.  Returns the channels done (out_c rounded down to 4); their weights are the first
 * 4 * K per block. */
AOT_ALWAYS_INLINE int32_t aot_mve_gemv(const int8_t* x, const int8_t* filter, int32_t k, int32_t out_c,
                                       const struct aot_mve_rq* rq, int8_t* out)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    const int32_t blocks = out_c >> 2;
    const int8_t* w = filter;
    int32_t sums[4 * AOT_MVE_GEMV_BLOCKS];
    int32_t c, i;
    for (c = 0; c < 4 * blocks; c += 4 * AOT_MVE_GEMV_BLOCKS) {
        const int32_t nb = blocks - c / 4 < AOT_MVE_GEMV_BLOCKS ? blocks - c / 4 : AOT_MVE_GEMV_BLOCKS;
        if (k >= 16) {
            aot_mve_dot_blocks1(x, w, k >> 4, nb, sums);
            w += nb * 4 * k;
        } else {
            /* K < 16: the block is the 4 channels' K weights in turn; one predicated vector each. */
            const mve_pred16_t p = vctp8q((uint32_t)k);
            const int8x16_t xv = vldrbq_z_s8(x, p);
            for (i = 0; i < nb; i++) {
                sums[4 * i] = vmladavq_s8(xv, vldrbq_z_s8(w, p));
                sums[4 * i + 1] = vmladavq_s8(xv, vldrbq_z_s8(w + k, p));
                sums[4 * i + 2] = vmladavq_s8(xv, vldrbq_z_s8(w + 2 * k, p));
                sums[4 * i + 3] = vmladavq_s8(xv, vldrbq_z_s8(w + 3 * k, p));
                w += 4 * k;
            }
        }
        aot_mve_store_blocks1_right(sums, nb, &q, c, out);
    }
    return 4 * blocks;
}

/* Two pixels of K < 16 taps (x0, x1: one vector each, the lanes past K zero) against nb >= 1 blocks of 4 channels
 * (each channel's K weights in turn, 4 * K bytes a block): the eight sums of a block stored at sums, 8 per block,
 * pixel 0's 4 channels first (as aot_mve_dot_blocks).  One VMLADAV per pixel and channel; each channel's weights
 * are a load predicated to K lanes (VCTP), so nothing past the filter is read: 23 instructions per block, where
 * the per-block C path (aot_mve_dot4 and aot_mve_store) took about 100 (a first layer on one channel, a pointwise
 * layer on 8). */
__attribute__((noinline)) static void aot_mve_dot_blocks_short(int8x16_t x0, int8x16_t x1, const int8_t* w, int32_t k,
                                                               int32_t nb, int32_t* sums)
{
    AOT_MVE_PINNED_ACCS();
    const int8_t* t;
    const int32_t* end = sums + 8 * nb;
    __asm__ volatile(
        "vctp.8 %[k]\n\t"
        "1:\n\t"
        "vpst\n\t"
        "vldrbt.8 q0, [%[w]]\n\t"
        "add %[t], %[w], %[k]\n\t"
        "vpst\n\t"
        "vldrbt.8 q1, [%[t]]\n\t"
        "add %[t], %[t], %[k]\n\t"
        "vpst\n\t"
        "vldrbt.8 q2, [%[t]]\n\t"
        "add %[t], %[t], %[k]\n\t"
        "vpst\n\t"
        "vldrbt.8 q3, [%[t]]\n\t"
        "add %[w], %[t], %[k]\n\t" AOT_MVE_DOT4("vmladav.s8", "a", "%q[x0]") AOT_MVE_DOT4(
            "vmladav.s8", "b", "%q[x1]") "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3], %[b0], %[b1], %[b2], %[b3]}\n\t"
                                         "cmp %[s], %[e]\n\t"
                                         "bne 1b"
        : AOT_MVE_ACC_OPERANDS("=&r"), [t] "=&r"(t), [w] "+r"(w), [s] "+r"(sums)
        : [x0] "w"(x0), [x1] "w"(x1), [k] "r"(k), [e] "r"(end)
        : "q0", "q1", "q2", "q3", "memory", "cc");
}

/* aot_mve_gemm for two pixels, K < 16, right shifts and per-channel constants, no fused ADD: the whole blocks of 4
 * channels (aot_mve_dot_blocks_short, then aot_mve_store_blocks_right, up to AOT_MVE_BLOCKS blocks a call).
 * Returns the channels done (out_c rounded down to 4). */
AOT_ALWAYS_INLINE int32_t aot_mve_gemm_short(const int8_t* x0, const int8_t* x1, const int8_t* filter, int32_t k,
                                             int32_t out_c, const struct aot_mve_rq* rq, int8_t* out0, int8_t* out1)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    const mve_pred16_t p = vctp8q((uint32_t)k);
    const int8x16_t v0 = vldrbq_z_s8(x0, p);
    const int8x16_t v1 = vldrbq_z_s8(x1, p);
    const int32_t blocks = out_c >> 2;
    const int8_t* w = filter;
    int32_t sums[8 * AOT_MVE_BLOCKS];
    int32_t c;
    for (c = 0; c < 4 * blocks; c += 4 * AOT_MVE_BLOCKS) {
        const int32_t nb = blocks - c / 4 < AOT_MVE_BLOCKS ? blocks - c / 4 : AOT_MVE_BLOCKS;
        aot_mve_dot_blocks_short(v0, v1, w, k, nb, sums);
        w += nb * 4 * k;
        aot_mve_store_blocks_right(sums, nb, &q, c, out0, out1);
    }
    return 4 * blocks;
}

/* aot_mve_gemm for two pixels, K a multiple of 16 and out_c of 4 (each pixel's K taps `runs` runs of K / runs
 * bytes, `skip` bytes from one run's end to the next's start), or K > 16 with one run zero-padded to a multiple of
 * 16 (`tail`: K % 16, then aot_mve_dot_blocks_tail): the products of up to AOT_MVE_BLOCKS channel blocks in one
 * call, then their requantization. */
AOT_ALWAYS_INLINE void aot_mve_gemm_k16(const int8_t* x0, const int8_t* x1, const int8_t* filter, int32_t k,
                                        int32_t runs, int32_t skip, int32_t out_c, const struct aot_mve_rq* rq,
                                        int8_t* out0, int8_t* out1, const int8_t* res0, const int8_t* res1, int fused,
                                        int right, int tail)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    const int8_t* w = filter;
    int32_t sums[8 * AOT_MVE_BLOCKS];
    struct aot_mve_blocks_args a;
    int32_t c, i;
    for (c = 0; c < out_c; c += 4 * AOT_MVE_BLOCKS) {
        const int32_t nb = (out_c - c) / 4 < AOT_MVE_BLOCKS ? (out_c - c) / 4 : AOT_MVE_BLOCKS;
        a.x0 = x0;
        a.x1 = x1;
        a.passes = (k / runs) >> 4;
        a.blocks = nb;
        a.sums = sums;
        a.skip = skip;
        a.runs = runs;
        if (tail) {
            a.tail = k & 15;
            if (a.passes == 1 && a.tail == 11) {
                aot_mve_dot_blocks_tail1_k27(&a, w);
            } else if (a.passes == 1) {
                aot_mve_dot_blocks_tail1(&a, w);
            } else {
                aot_mve_dot_blocks_tail(&a, w);
            }
#if defined(AOT_MVE_RUNS3)
        } else if ((runs == 3 && a.passes == 3) || (runs == 1 && skip == 0 && a.passes == 9)) {
            /* (One run of 144 bytes: a 3x3 window on 16 channels gathered at the image's border, three runs with
             * no skip.) */
            aot_mve_dot_blocks_runs3p3(&a, w);
        } else if ((runs == 3 && a.passes == 6) || (runs == 1 && skip == 0 && a.passes == 18)) {
            aot_mve_dot_blocks_runs3p6(&a, w);
#endif
        } else if (runs == 1 && a.passes == 4) {
            aot_mve_dot_blocks_row4(&a, w);
        } else if (runs == 1 && a.passes == 2) {
            aot_mve_dot_blocks_row2(&a, w);
        } else if (runs == 1) {
            aot_mve_dot_blocks_row(&a, w);
        } else {
            aot_mve_dot_blocks_any(&a, w);
        }
        w += nb * 4 * k;
        if (!fused && right && q.per_channel) {
            aot_mve_store_blocks_right(sums, nb, &q, c, out0, out1);
            continue;
        }
        if (fused && right && q.per_channel) {
            aot_mve_index_blocks_right(sums, nb, &q, c);
            aot_mve_add_blocks(sums, nb, &q, c, out0, res0);
            aot_mve_add_blocks(sums + 4, nb, &q, c, out1, res1);
            continue;
        }
        for (i = 0; i < nb; i++) {
            struct aot_mve_chan ch;
            aot_mve_chan_load(&ch, &q, c + 4 * i, 4);
            aot_mve_store(vldrwq_s32(sums + 8 * i), c + 4 * i, &ch, &q, res0, out0, fused, 1, right);
            aot_mve_store(vldrwq_s32(sums + 8 * i + 4), c + 4 * i, &ch, &q, res1, out1, fused, 1, right);
        }
    }
}
#endif

/* ACC0..ACC3 += the dot products of the input vector X with the weight vectors W0..W3. */
#define AOT_MVE_MLA4(ACC, X, W)                                                                                        \
    do {                                                                                                               \
        ACC##0 = vmladavaq_s8(ACC##0, (X), W##0);                                                                      \
        ACC##1 = vmladavaq_s8(ACC##1, (X), W##1);                                                                      \
        ACC##2 = vmladavaq_s8(ACC##2, (X), W##2);                                                                      \
        ACC##3 = vmladavaq_s8(ACC##3, (X), W##3);                                                                      \
    } while (0)

/* DST = the vector {ACC0, ACC1, ACC2, ACC3}.  (A macro: an inline function's copies of its arguments change the
 * unoptimised code.) */
#define AOT_MVE_LANES(DST, ACC)                                                                                        \
    do {                                                                                                               \
        int32x4_t v = vdupq_n_s32(ACC##0);                                                                             \
        v = vsetq_lane_s32(ACC##1, v, 1);                                                                              \
        v = vsetq_lane_s32(ACC##2, v, 2);                                                                              \
        (DST) = vsetq_lane_s32(ACC##3, v, 3);                                                                          \
    } while (0)

/* One or two pixels (x1 ignored unless `two`) against a block of 4 channels laid out as above: r0/r1 get the
 * 4 dot products of each pixel. */
AOT_ALWAYS_INLINE void aot_mve_dot4(const int8_t* x0, const int8_t* x1, const int8_t* w, int32_t k, int two,
                                    int32x4_t* r0, int32x4_t* r1)
{
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0, n;
    const int32_t t = k & 15;
    const int8_t* wt = w; /* the block's tails come first */
    w += 4 * t;
#if defined(__OPTIMIZE__)
    if (two && k >= 16) {
        /* Eight accumulators: VMLADAVA takes even registers only, and r0..r12 hold seven, so GCC spills one (or more)
         * in this loop; here they are pinned (the loop counts with SUBS/BNE, not LE). */
        AOT_MVE_PINNED_ACCS(= 0);
        n = k >> 4;
        AOT_MVE_DOT4X2_LOOP(x0, x1, w, n);
        a0 = ra0;
        a1 = ra1;
        a2 = ra2;
        a3 = ra3;
        b0 = rb0;
        b1 = rb1;
        b2 = rb2;
        b3 = rb3;
    } else
#endif
    {
        /* (Unoptimised builds keep the frame pointer and lack the registers of the loop above.) */
        for (n = k >> 4; n > 0; n--) {
            const int8x16_t v0 = vldrbq_s8(x0);
            const int8x16_t w0 = vldrbq_s8(w), w1 = vldrbq_s8(w + 16), w2 = vldrbq_s8(w + 32), w3 = vldrbq_s8(w + 48);
            AOT_MVE_MLA4(a, v0, w);
            if (two) {
                const int8x16_t v1 = vldrbq_s8(x1);
                AOT_MVE_MLA4(b, v1, w);
                x1 += 16;
            }
            x0 += 16;
            w += 64;
        }
    }
    if (t) {
        /* The lanes past K load as zero (and nothing past the block is read). */
        const mve_pred16_t p = vctp8q((uint32_t)t);
        const int8x16_t v0 = vldrbq_z_s8(x0, p);
        const int8x16_t w0 = vldrbq_z_s8(wt, p), w1 = vldrbq_z_s8(wt + t, p), w2 = vldrbq_z_s8(wt + 2 * t, p),
                        w3 = vldrbq_z_s8(wt + 3 * t, p);
        AOT_MVE_MLA4(a, v0, w);
        if (two) {
            const int8x16_t v1 = vldrbq_z_s8(x1, p);
            AOT_MVE_MLA4(b, v1, w);
        }
    }
    AOT_MVE_LANES(*r0, a);
    if (two) {
        AOT_MVE_LANES(*r1, b);
    }
}

#if defined(__OPTIMIZE__)
/* aot_mve_gemm for two pixels whose K taps are `runs` runs of run_len bytes (a multiple of 16), `stride` apart in
 * the input (a convolution's filter rows inside the image: no im2col copy), and out_c a multiple of 4. */
AOT_ALWAYS_INLINE void aot_mve_gemm_runs(const int8_t* x0, const int8_t* x1, int32_t runs, int32_t run_len,
                                         int32_t stride, const int8_t* filter, int32_t out_c,
                                         const struct aot_mve_rq* rq, int8_t* out0, int8_t* out1, const int8_t* res0,
                                         const int8_t* res1, int fused, int right)
{
    aot_mve_gemm_k16(x0, x1, filter, runs * run_len, runs, stride - run_len, out_c, rq, out0, out1, res0, res1, fused,
                     right, 0);
}
#endif

/* One or two pixels against one channel stored as K plain weights. */
AOT_ALWAYS_INLINE void aot_mve_dot1(const int8_t* x0, const int8_t* x1, const int8_t* w, int32_t k, int two,
                                    int32_t* r0, int32_t* r1)
{
    int32_t a = 0, b = 0, left;
    for (left = k; left > 0; left -= 16) {
        const mve_pred16_t p = vctp8q((uint32_t)left);
        const int8x16_t wv = vldrbq_z_s8(w, p);
        a = vmladavaq_s8(a, vldrbq_z_s8(x0, p), wv);
        if (two) {
            b = vmladavaq_s8(b, vldrbq_z_s8(x1, p), wv);
            x1 += 16;
        }
        x0 += 16;
        w += 16;
    }
    *r0 = a;
    *r1 = b;
}

/* One or two pixels (rows of K inputs at x0, x1) against every output channel: outputs at out0 / out1 (out_c
 * values each), residual elements (fused ADD) at res0 / res1.  padded: both rows hold zeros from K up to the next
 * multiple of 16 (im2col rows in scratch, aot_mve_row_bytes). */
AOT_ALWAYS_INLINE void aot_mve_gemm(const int8_t* x0, const int8_t* x1, const int8_t* filter, int32_t k, int32_t out_c,
                                    const struct aot_mve_rq* rq, int8_t* out0, int8_t* out1, const int8_t* res0,
                                    const int8_t* res1, int two, int fused, int right, int padded)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    const int8_t* w = filter;
    int32_t c;
    (void)padded;
    c = 0;
#if defined(__OPTIMIZE__)
    if (two && k >= 16 && (out_c & 3) == 0 && ((k & 15) == 0 || padded)) {
        aot_mve_gemm_k16(x0, x1, filter, k, 1, 0, out_c, rq, out0, out1, res0, res1, fused, right, (k & 15) != 0);
        return;
    }
    if (!two && !fused && right && ((k & 15) == 0 || k < 16)) {
        c = aot_mve_gemv(x0, filter, k, out_c, rq, out0);
        w += c * k;
    }
    if (two && k < 16 && !fused && right && q.per_channel) {
        c = aot_mve_gemm_short(x0, x1, filter, k, out_c, rq, out0, out1);
        w += c * k;
    }
#endif
    for (; c + 4 <= out_c; c += 4) {
        int32x4_t r0, r1 = vdupq_n_s32(0);
        struct aot_mve_chan ch;
        aot_mve_dot4(x0, x1, w, k, two, &r0, &r1);
        aot_mve_chan_load(&ch, &q, c, 4);
        aot_mve_store(r0, c, &ch, &q, res0, out0, fused, 1, right);
        if (two) {
            aot_mve_store(r1, c, &ch, &q, res1, out1, fused, 1, right);
        }
        w += 4 * k;
    }
    if (c < out_c) {
        const int32_t n = out_c - c;
        int32_t a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, i;
        struct aot_mve_chan ch;
        for (i = 0; i < n; i++) {
            aot_mve_dot1(x0, x1, w, k, two, &a[i], &b[i]);
            w += k;
        }
        aot_mve_chan_load(&ch, &q, c, n);
        aot_mve_store(vld1q_s32(a), c, &ch, &q, res0, out0, fused, 0, right);
        if (two) {
            aot_mve_store(vld1q_s32(b), c, &ch, &q, res1, out1, fused, 0, right);
        }
    }
}

#else /* portable: the same layout, scalar */

/* Weight (channel c, tap j) of the layout above. */
AOT_HOT_INLINE int8_t aot_mve_weight(const int8_t* filter, int32_t k, int32_t out_c, int32_t c, int32_t j)
{
    const int32_t blocks = out_c / 4;
    const int32_t full = k / 16 * 16;
    const int32_t r = c % 4;
    const int8_t* block = filter + (c / 4) * 4 * k;
    if (c >= 4 * blocks) {
        return filter[blocks * 4 * k + (c - 4 * blocks) * k + j];
    }
    if (j < full) {
        return block[4 * (k - full) + (j / 16) * 64 + r * 16 + j % 16];
    }
    return block[r * (k - full) + (j - full)];
}

AOT_HOT_INLINE void aot_mve_gemm(const int8_t* x0, const int8_t* x1, const int8_t* filter, int32_t k, int32_t out_c,
                                 const struct aot_mve_rq* rq, int8_t* out0, int8_t* out1, const int8_t* res0,
                                 const int8_t* res1, int two, int fused, int right, int padded)
{
    int32_t c, j, s;
    (void)right;
    (void)padded;
    for (s = 0; s < (two ? 2 : 1); s++) {
        const int8_t* x = s ? x1 : x0;
        int8_t* out = s ? out1 : out0;
        const int8_t* res = s ? res1 : res0;
        for (c = 0; c < out_c; c++) {
            uint32_t acc = (uint32_t)rq->bias[c];
            int32_t v;
            for (j = 0; j < k; j++) {
                acc += (uint32_t)(x[j] * aot_mve_weight(filter, k, out_c, c, j));
            }
            v = aot_multiply_by_quantized_multiplier((int32_t)acc, rq->multiplier[c * rq->per_channel],
                                                     rq->shift[c * rq->per_channel]);
            v = (int32_t)((uint32_t)v + (uint32_t)rq->out_offset);
            v = aot_dsp_clamp(v, rq->act_min, rq->act_max);
            if (fused) {
                v = aot_add_s8_elem(v, res[c], rq->add, 0);
            }
            out[c] = (int8_t)v;
        }
    }
}

#endif

#endif /* AOT_KERNELS_MVE_S8_H_ */
