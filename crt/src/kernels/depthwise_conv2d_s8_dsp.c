/* int8 3x3 depthwise convolution (depth multiplier 1, no dilation, any stride) for cores with the DSP
 * extension, with a portable fallback.
 *
 * NHWC puts neighbouring taps of one channel `channels` bytes apart, which no dual-MAC instruction can use.
 * So the kernel works on int16 planes: it copies channels into planes in scratch (border cells hold the input
 * zero point, whose product with the weights the compiler folded into `bias`), where neighbouring taps are
 * neighbouring int16 lanes.  Two channels are copied per pass over the input: one halfword load per pixel
 * holds both, two pixels make one word, and SXTB16 / SXTB16 ROR #8 of it are the two planes' cell pairs
 * (2.25 instructions per value with the loop).  Two outputs of a plane row are computed together from
 * aligned word pairs: with stride 1, per filter row, taps p0..p3 as (p0, p1) and (p2, p3) and weights as
 * (w0, w1) and (w1, w2)
 *     out0 = w0 p0 + w1 p1 + w2 p2 = SMLAD((p0,p1), (w0,w1)) + SMLABT((p2,p3), (w1,w2))
 *     out1 = w0 p1 + w1 p2 + w2 p3 = SMLATB((p0,p1), (w0,w1)) + SMLAD((p2,p3), (w1,w2)),
 * six multiply-accumulates for two loads; with stride 2, taps p0..p4 give out0 from (p0,p1), (p2,p3) and out1
 * from (p2,p3), (p4,p5).  An odd output count per row computes one more (it reads border cells only and is
 * dropped), so every row is pairs.  Other strides take one output at a time.  The accumulators of as many
 * plane rows as fit AOT_DW_ACC_CELLS (at least one row) are computed first, then requantized: each loop keeps
 * its constants in registers, and small images (KWS's 25x5, MobileNet's 3x3..12x12) run one accumulation and
 * one requantization loop per channel instead of one per row.  On DSP cores the stride-1 accumulation (36
 * instructions per two output pairs) and the full-range requantization (25 per four outputs) are asm, the same code
 * at every optimization level.  (Fusing the requantization into the accumulation does not pay: with the six
 * weight pairs, three row pointers, two taps and two accumulators in registers, its constants would be reloaded
 * per output pair; two output rows per pass need 16+ registers too.)
 *
 * "Rows" and "columns" are the plane's: the compiler passes the image either as it is or transposed (its
 * row and column steps swapped, the 3x3 filter transposed to match) so that plane rows are the longer
 * side, which is what the two-output loops are good at (e.g. KWS: 25x5 images become 5 rows of 25).
 * Weights: per channel 9 bytes, as many as the model's: filter row r (in plane orientation: the model's
 * [1, 3, 3, channels], maybe transposed) (w[r][0], w[r][1], w[r][2]) at byte 3 r, laid out by the compiler
 * (compiler/ops/kernels/conv.py, dsp_3x3_weights).  The stride-1 asm reads each row with one unaligned LDR (rows 0
 * and 1 at bytes 0 and 3, row 2 at byte 5 so that the last channel reads nothing past the array): SXTB16 of the
 * word (rotated by 8 for row 2) is (w0, w2), SXTB16 rotated 8 more (w1, -), SADD16 doubles them and PKHBT packs
 * the int16 lane pairs (w0, w1) and (w1, w2) the accumulation multiplies by (7 instructions per row, once per
 * channel and call, no per-channel work in C); `bias` is doubled, so the accumulators are 2 * acc, which the short
 * requantization (dsp_s8.h, aot_dsp_requant_x2) takes without a shift.  The accumulation and requantization geometry is
 * set once per call (job records), so per channel the kernel makes one call of each per chunk. Requantization: per
 * channel a multiplier and an add constant (output offset and rounding, dsp_s8.h). Scratch (int32 cells, then bytes):
 * with n = out_cols rounded up to even for strides 1 and 2 (else out_cols), R = min(out_rows, max(1, AOT_DW_ACC_CELLS /
 * n)) rows of n accumulators (4 * R * n bytes; none when the fused loop below serves the layer: stride 1 along the
 * rows, out_cols >= 2, full int8 range, short form), then two planes of Hp * Wp int16, Hp = (out_rows - 1) * stride_r +
 * 3, Wp = (n - 1) * stride_c + 3 rounded up to even (compiler/ops/depthwise_conv_2d.py mirrors this). Requires: the
 * per-channel requantization constants of compiler/ops/common/short_requant.py (which also proves |acc| < 2^30, so 2 *
 * acc fits int32).
 */
#include "aot_sched.h"

#include "aot/kernels/depthwise_conv2d.h"
#include "dsp_s8.h"

/* The accumulation loops are kept out of line: inlined into the channel loop, GCC 12 spills two more
 * registers per output pair. */
#if defined(__GNUC__)
#define AOT_DW_NOINLINE __attribute__((noinline))
#else
#define AOT_DW_NOINLINE
#endif

/* Accumulators kept in scratch before a requantization pass (a row more if one row is longer). */
#define AOT_DW_ACC_CELLS 160

#include "depthwise_conv2d_s8_dsp_mac.h"

/* Lane pair (2 lo, 2 hi) of two int8 weights. */
static uint32_t aot_dw_pair2(int32_t lo, int32_t hi)
{
    return ((uint32_t)(2 * lo) & 0xFFFFu) | ((uint32_t)(2 * hi) << 16);
}

AOT_HOT_INLINE uint16_t aot_dw_read16(const int8_t* p)
{
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

AOT_HOT_INLINE void aot_dw_write32(int16_t* p, uint32_t v)
{
    memcpy(p, &v, sizeof(v));
}

/* One output whose window rows start at r0, r1, r2 (any stride): per row one SMLAD on the first two taps
 * read as one word, and (third tap, 0) x (w2, 0) for the last.  w: the channel's six pairs. */
static int32_t aot_dw_window(const int16_t* r0, int32_t wp, const uint32_t* w, int32_t acc)
{
    int32_t ky;
    for (ky = 0; ky < 3; ky++) {
        acc = aot_smlad(aot_read32((const int8_t*)r0), w[2 * ky], acc);
        acc = aot_smlabt((uint32_t)(int32_t)r0[2], w[2 * ky + 1], acc);
        r0 += wp;
    }
    return acc;
}

/* The asm loops below (accumulation at stride 1, full-range requantization) need every register, which GCC's
 * allocator does not give an asm statement at every optimization level; as naked functions they are the same
 * code at -O0, -Os and -O2.  They read their arguments from a job record (the parameters are not C's). */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__)
#define AOT_DW_ASM 1
#if defined(__clang__)
#define AOT_DW_NAKED __attribute__((naked, noinline))
#else
#define AOT_DW_NAKED __attribute__((naked, noinline, noipa))
#endif
#define AOT_DW_ARG __attribute__((unused))
#else
#define AOT_DW_ASM 0
#endif

/* The geometry of the stride-1 accumulation of one chunk of plane rows (set once per chunk size, the same for
 * every channel; offsets fixed: the asm reads them). */
struct aot_dw_acc_job {
    int32_t* acc;       /* 0 */
    int32_t* acc_end;   /* 4 */
    int32_t wp_bytes;   /* 8: plane row pitch */
    int32_t skip_bytes; /* 12: from a row's end to the next row's start, per window row */
    int32_t row_bytes;  /* 16: 4 * n */
    int32_t odd;        /* 20: n / 2 is odd (a row starts with the loop's second pair) */
};

#if AOT_DW_ASM
/* One output pair of the stride-1 rows: the three filter rows (their doubled weight pairs in r4-r9) times two
 * input words of each plane row (r10, r11, lr), onto the sums r2 and r12 (r12 holds the bias on entry). */
/* clang-format off */
/* The channel's doubled weight pairs for its three filter rows, in r4-r9, from its 9 weight bytes at r2 (one
 * unaligned word per row: SXTB16 / SADD16 / PKHBT), as both stride-1 routines below build them. */
#define AOT_DW_WEIGHT_PAIRS_ASM \
    "ldr r10, [r2]\n\t" \
    "sxtb16 r11, r10\n\t" \
    "sxtb16 r10, r10, ror #8\n\t" \
    "sadd16 r11, r11, r11\n\t" \
    "sadd16 r10, r10, r10\n\t" \
    "pkhbt r4, r11, r10, lsl #16\n\t" \
    "pkhbt r5, r10, r11\n\t" \
    "ldr r10, [r2, #3]\n\t" \
    "sxtb16 r11, r10\n\t" \
    "sxtb16 r10, r10, ror #8\n\t" \
    "sadd16 r11, r11, r11\n\t" \
    "sadd16 r10, r10, r10\n\t" \
    "pkhbt r6, r11, r10, lsl #16\n\t" \
    "pkhbt r7, r10, r11\n\t" \
    "ldr r10, [r2, #5]\n\t" \
    "sxtb16 r11, r10, ror #8\n\t" \
    "sxtb16 r10, r10, ror #16\n\t" \
    "sadd16 r11, r11, r11\n\t" \
    "sadd16 r10, r10, r10\n\t" \
    "pkhbt r8, r11, r10, lsl #16\n\t" \
    "pkhbt r9, r10, r11\n\t"
/* clang-format on */

/* clang-format off */
#define AOT_DW_PAIR_MAC_ASM \
    "ldrd r0, r1, [r10], #4\n\t" \
    "smlad r2, r0, r4, r12\n\t" \
    "smlatb r12, r0, r4, r12\n\t" \
    "smlabt r2, r1, r5, r2\n\t" \
    "smlad r12, r1, r5, r12\n\t" \
    "ldrd r0, r1, [r11], #4\n\t" \
    "smlad r2, r0, r6, r2\n\t" \
    "smlatb r12, r0, r6, r12\n\t" \
    "smlabt r2, r1, r7, r2\n\t" \
    "smlad r12, r1, r7, r12\n\t" \
    "ldrd r0, r1, [lr], #4\n\t" \
    "smlad r2, r0, r8, r2\n\t" \
    "smlatb r12, r0, r8, r12\n\t" \
    "smlabt r2, r1, r9, r2\n\t" \
    "smlad r12, r1, r9, r12\n\t"
/* The pair requantized with the constants the fused loop keeps at [sp, #8..#20] and stored a column apart. */
#define AOT_DW_PAIR_RQ_STORE_ASM \
    "ldrd r0, r1, [sp, #8]\n\t" \
    "add r1, r1, r2, asr #31\n\t" \
    "smmlar r2, r2, r0, r1\n\t" \
    "ldr r1, [sp, #12]\n\t" \
    "add r1, r1, r12, asr #31\n\t" \
    "smmlar r12, r12, r0, r1\n\t" \
    "ldrd r0, r1, [sp, #16]\n\t" \
    "asr r2, r2, r0\n\t" \
    "asr r12, r12, r0\n\t" \
    "ssat r2, #8, r2\n\t" \
    "ssat r12, #8, r12\n\t" \
    "strb r2, [r3]\n\t" \
    "strb r12, [r3, r1]\n\t" \
    "add r3, r3, r1, lsl #1\n\t"
/* clang-format on */

/* Per pair of outputs: three LDRD, twelve multiply-accumulates, one STRD; fourteen registers hold the weights, the
 * three row pointers, the accumulators and the taps, so the bias and the row end come from the frame, both in the
 * one LDRD that ends a pair (the bias of the next pair is loaded as the accumulator is stored).  The loop takes two
 * pairs per pass and tests the row end after the second only (a row of an odd number of pairs starts with the
 * second).  The weights come as int8 (w0, w1, w2) per filter row, 9 bytes per channel: per row one unaligned LDR
 * (row 2 at byte 5, its bytes 1..3), SXTB16 / SXTB16 ROR #8 (ROR #8 / #16 for row 2) give (w0, w2) and (w1, -),
 * SADD16 doubles them and PKHBT packs the lane pairs (w0, w1) and (w1, w2).  Arguments: the job, the first cell of
 * window row 0, the channel's 9 weight bytes, its bias. */
AOT_DW_NAKED static void aot_dw_rows_s1_asm(const struct aot_dw_acc_job* job AOT_DW_ARG, const int16_t* r0 AOT_DW_ARG,
                                            const int8_t* f AOT_DW_ARG, int32_t bias AOT_DW_ARG)
{
    __asm__ volatile("push {r4-r11, lr}\n\t"
                     "sub sp, sp, #16\n\t"
                     "str r3, [sp, #4]\n\t"
                     "str r0, [sp, #8]\n\t"
                     "ldr r12, [r0, #20]\n\t"
                     "str r12, [sp, #12]\n\t" AOT_DW_WEIGHT_PAIRS_ASM "mov r10, r1\n\t"
                     "ldr r2, [r0, #8]\n\t"
                     "add r11, r10, r2\n\t"
                     "add lr, r11, r2\n\t"
                     "mov r12, r3\n\t"
                     "ldr r3, [r0]\n\t"
                     "ldr r2, [r0, #16]\n\t"
                     "add r2, r3, r2\n\t"
                     "str r2, [sp]\n\t"
                     "3:\n\t"
                     "ldr r2, [sp, #12]\n\t"
                     "cbnz r2, 2f\n\t"
                     "1:\n\t" AOT_DW_PAIR_MAC_ASM "strd r2, r12, [r3], #8\n\t"
                     "ldr r12, [sp, #4]\n\t"
                     "2:\n\t" AOT_DW_PAIR_MAC_ASM "strd r2, r12, [r3], #8\n\t"
                     "ldrd r0, r12, [sp]\n\t"
                     "cmp r3, r0\n\t"
                     "bne 1b\n\t"
                     "ldr r0, [sp, #8]\n\t"
                     "ldr r1, [r0, #12]\n\t"
                     "add r10, r10, r1\n\t"
                     "add r11, r11, r1\n\t"
                     "add lr, lr, r1\n\t"
                     "ldr r1, [r0, #4]\n\t"
                     "cmp r3, r1\n\t"
                     "beq 9f\n\t"
                     "ldr r1, [r0, #16]\n\t"
                     "add r1, r3, r1\n\t"
                     "str r1, [sp]\n\t"
                     "b 3b\n\t"
                     "9:\n\t"
                     "add sp, sp, #16\n\t"
                     "pop {r4-r11, pc}\n\t");
}
#endif

/* The job of the fused stride-1 accumulation and full-range requantization (aot_dw_rows_s1_rq_asm): the layer's
 * geometry and per-channel arrays, set once per call (offsets fixed: the asm reads them). */
struct aot_dw_fused_job {
    const int32_t* bias; /* 0: doubled, per channel */
    const int32_t* mult; /* 4 */
    const int32_t* add;  /* 8 */
    int8_t* out;         /* 12: the batch's output */
    int32_t wp_bytes;    /* 16: plane row pitch */
    int32_t skip_bytes;  /* 20: from a row's last pair to the next row's start, per window row */
    int32_t odd;         /* 24: (out_cols / 2) is odd (a row starts with the loop's second pair) */
    int32_t tail;        /* 28: out_cols is odd (a row ends with one output) */
    int32_t o_skip;      /* 32: from the output after a row's last pair to the next row's first */
    int32_t row_span;    /* 36: 2 * (out_cols / 2) * step */
    int32_t rows;        /* 40: out_rows, at least 1 */
    int32_t step;        /* 44: output column step */
};

#if AOT_DW_ASM
/* The whole image of one channel at stride 1, full int8 range, without an accumulator buffer: per pair of outputs
 * three LDRD, twelve multiply-accumulates, then the two outputs' requantization (SMMLAR, shift, SSAT, STRB each), its
 * constants read from the frame in LDRD pairs (the registers hold the weights, row pointers, taps and accumulators);
 * two pairs per pass, the row end tested after the second (a row of an odd number of pairs starts with the second),
 * an odd row's last output alone.  Arguments: the job, the first cell of window row 0, the channel's 9 weight
 * bytes, the channel.  Frame: 0 row end (output), 4 bias, 8 m, 12 add, 16 right shift, 20 step, 24 job, 28 odd,
 * 32 rows left. */
AOT_DW_NAKED static void aot_dw_rows_s1_rq_asm(const struct aot_dw_fused_job* job AOT_DW_ARG,
                                               const int16_t* r0 AOT_DW_ARG, const int8_t* f AOT_DW_ARG,
                                               int32_t c AOT_DW_ARG)
{
    __asm__ volatile("push {r4-r11, lr}\n\t"
                     "sub sp, sp, #36\n\t"
                     "str r0, [sp, #24]\n\t"
                     "ldr r4, [r0]\n\t"
                     "ldr r4, [r4, r3, lsl #2]\n\t"
                     "str r4, [sp, #4]\n\t"
                     "ldr r4, [r0, #4]\n\t"
                     "ldr r4, [r4, r3, lsl #2]\n\t"
                     "str r4, [sp, #8]\n\t"
                     "ldr r4, [r0, #8]\n\t"
                     "ldr r4, [r4, r3, lsl #2]\n\t"
                     "str r4, [sp, #12]\n\t"
                     "rbit r4, r4\n\t"
                     "clz r4, r4\n\t"
                     "add r4, r4, #1\n\t"
                     "str r4, [sp, #16]\n\t"
                     "ldr r4, [r0, #44]\n\t"
                     "str r4, [sp, #20]\n\t"
                     "ldr r4, [r0, #24]\n\t"
                     "str r4, [sp, #28]\n\t"
                     "ldr r4, [r0, #40]\n\t"
                     "str r4, [sp, #32]\n\t"
                     "ldr r4, [r0, #12]\n\t"
                     "add r3, r4, r3\n\t"
                     "ldr r4, [r0, #36]\n\t"
                     "add r4, r3, r4\n\t"
                     "str r4, [sp]\n\t" AOT_DW_WEIGHT_PAIRS_ASM "mov r10, r1\n\t"
                     "ldr r2, [r0, #16]\n\t"
                     "add r11, r10, r2\n\t"
                     "add lr, r11, r2\n\t"
                     "ldr r12, [sp, #4]\n\t"
                     "3:\n\t"
                     "ldr r2, [sp, #28]\n\t"
                     "cbnz r2, 2f\n\t"
                     "1:\n\t" AOT_DW_PAIR_MAC_ASM AOT_DW_PAIR_RQ_STORE_ASM "ldr r12, [sp, #4]\n\t"
                     "2:\n\t" AOT_DW_PAIR_MAC_ASM AOT_DW_PAIR_RQ_STORE_ASM "ldrd r0, r12, [sp]\n\t"
                     "cmp r3, r0\n\t"
                     "bne 1b\n\t"
                     "ldr r0, [sp, #24]\n\t"
                     "ldr r1, [r0, #28]\n\t"
                     "cbz r1, 4f\n\t"
                     "ldrd r0, r1, [r10], #4\n\t"
                     "smlad r2, r0, r4, r12\n\t"
                     "smlabt r2, r1, r5, r2\n\t"
                     "ldrd r0, r1, [r11], #4\n\t"
                     "smlad r2, r0, r6, r2\n\t"
                     "smlabt r2, r1, r7, r2\n\t"
                     "ldrd r0, r1, [lr], #4\n\t"
                     "smlad r2, r0, r8, r2\n\t"
                     "smlabt r2, r1, r9, r2\n\t"
                     "ldrd r0, r1, [sp, #8]\n\t"
                     "add r1, r1, r2, asr #31\n\t"
                     "smmlar r2, r2, r0, r1\n\t"
                     "ldr r0, [sp, #16]\n\t"
                     "asr r2, r2, r0\n\t"
                     "ssat r2, #8, r2\n\t"
                     "strb r2, [r3]\n\t"
                     "4:\n\t"
                     "ldr r0, [sp, #24]\n\t"
                     "ldr r1, [r0, #20]\n\t"
                     "add r10, r10, r1\n\t"
                     "add r11, r11, r1\n\t"
                     "add lr, lr, r1\n\t"
                     "ldr r1, [r0, #32]\n\t"
                     "add r3, r3, r1\n\t"
                     "ldr r1, [sp, #32]\n\t"
                     "subs r1, r1, #1\n\t"
                     "beq 9f\n\t"
                     "str r1, [sp, #32]\n\t"
                     "ldr r1, [r0, #36]\n\t"
                     "add r1, r3, r1\n\t"
                     "str r1, [sp]\n\t"
                     "b 3b\n\t"
                     "9:\n\t"
                     "add sp, sp, #36\n\t"
                     "pop {r4-r11, pc}\n\t");
}
#endif

/* The channel's six lane pairs (2 w0, 2 w1), (2 w1, 2 w2) per filter row from its 9 weight bytes (w0, w1, w2) per
 * row (the C loops' form of what the asm does in registers). */
static void aot_dw_pairs(const int8_t* f, uint32_t* w)
{
    int32_t i;
    for (i = 0; i < 3; i++) {
        w[2 * i] = aot_dw_pair2(f[3 * i], f[3 * i + 1]);
        w[2 * i + 1] = aot_dw_pair2(f[3 * i + 1], f[3 * i + 2]);
    }
}

/* The fused loop of aot_dw_rows_s1_rq_asm in C (cores without the DSP extension: the host build of the same
 * generated code). */
#if AOT_DW_ASM
#define AOT_DW_ROWS_S1_RQ aot_dw_rows_s1_rq_asm
#else
#define AOT_DW_ROWS_S1_RQ aot_dw_rows_s1_rq_c
AOT_DW_NOINLINE static void aot_dw_rows_s1_rq_c(const struct aot_dw_fused_job* job, const int16_t* r0, const int8_t* f,
                                                int32_t c)
{
    uint32_t w[6];
    const int32_t wp = job->wp_bytes / 2, skip = job->skip_bytes / 2, pairs = job->row_span / (2 * job->step);
    const int32_t bias = job->bias[c], m = job->mult[c], add = job->add[c], rs = aot_dsp_shift(add);
    const int32_t step = job->step;
    const int16_t* r1 = r0 + wp;
    const int16_t* r2 = r1 + wp;
    int8_t* o = job->out + c;
    int32_t y, x;
    aot_dw_pairs(f, w);
    for (y = 0; y < job->rows; y++) {
        for (x = 0; x < pairs + job->tail; x++) {
            uint32_t p01, p23;
            int32_t s0 = bias, s1 = bias;
            AOT_DW_LOAD2(r0, p01, p23, 4);
            s0 = aot_smlabt(p23, w[1], aot_smlad(p01, w[0], s0));
            s1 = aot_smlad(p23, w[1], aot_smlatb(p01, w[0], s1));
            AOT_DW_LOAD2(r1, p01, p23, 4);
            s0 = aot_smlabt(p23, w[3], aot_smlad(p01, w[2], s0));
            s1 = aot_smlad(p23, w[3], aot_smlatb(p01, w[2], s1));
            AOT_DW_LOAD2(r2, p01, p23, 4);
            s0 = aot_smlabt(p23, w[5], aot_smlad(p01, w[4], s0));
            s1 = aot_smlad(p23, w[5], aot_smlatb(p01, w[4], s1));
            o[0] = (int8_t)aot_dsp_sat8(aot_dsp_requant_x2(s0, m, add, rs));
            if (x < pairs) {
                o[step] = (int8_t)aot_dsp_sat8(aot_dsp_requant_x2(s1, m, add, rs));
                o += 2 * step;
            }
        }
        r0 += skip;
        r1 += skip;
        r2 += skip;
        o += job->o_skip;
    }
}
#endif

/* The job's rows of n (even) outputs, stride 1, the first row's window starting at r0 (word aligned), each next one
 * skip_bytes after the previous row's last pair: pairs of outputs from aligned word pairs.  f: the channel's 9
 * weight bytes. */
#if AOT_DW_ASM
#define AOT_DW_ROWS_S1 aot_dw_rows_s1_asm
#else
#define AOT_DW_ROWS_S1 aot_dw_rows_s1_c
AOT_DW_NOINLINE static void aot_dw_rows_s1_c(const struct aot_dw_acc_job* job, const int16_t* r0, const int8_t* f,
                                             int32_t bias)
{
    uint32_t w[6];
    const int32_t wp = job->wp_bytes / 2, skip = job->skip_bytes / 2, n = job->row_bytes / 4;
    const int16_t* r1 = r0 + wp;
    const int16_t* r2 = r1 + wp;
    int32_t* acc = job->acc;
    int32_t* const end = job->acc_end;
    uint32_t a0, b0, a1, b1, a2, b2;
    aot_dw_pairs(f, w);
    a0 = w[0];
    b0 = w[1];
    a1 = w[2];
    b1 = w[3];
    a2 = w[4];
    b2 = w[5];
    while (acc != end) {
        int32_t* const row_end = acc + n;
        while (acc != row_end) {
            uint32_t p01, p23;
            int32_t s0 = bias, s1 = bias;
            AOT_DW_LOAD2(r0, p01, p23, 4);
            s0 = aot_smlabt(p23, b0, aot_smlad(p01, a0, s0));
            s1 = aot_smlad(p23, b0, aot_smlatb(p01, a0, s1));
            AOT_DW_LOAD2(r1, p01, p23, 4);
            s0 = aot_smlabt(p23, b1, aot_smlad(p01, a1, s0));
            s1 = aot_smlad(p23, b1, aot_smlatb(p01, a1, s1));
            AOT_DW_LOAD2(r2, p01, p23, 4);
            s0 = aot_smlabt(p23, b2, aot_smlad(p01, a2, s0));
            s1 = aot_smlad(p23, b2, aot_smlatb(p01, a2, s1));
            acc[0] = s0;
            acc[1] = s1;
            acc += 2;
        }
        r0 += skip;
        r1 += skip;
        r2 += skip;
    }
}
#endif

/* The same with stride 2 along rows: out0 from taps (p0,p1) (p2,p3), out1 from (p2,p3) (p4,p5). */
AOT_DW_NOINLINE static void aot_dw_rows_s2(const int16_t* r0, int32_t wp, int32_t row_step, int32_t rows, int32_t n,
                                           const uint32_t* w, int32_t bias, int32_t* acc)
{
    const uint32_t a0 = w[0], b0 = w[1], a1 = w[2], b1 = w[3], a2 = w[4], b2 = w[5];
    const int32_t skip = row_step - 2 * n;
    const int16_t* r1 = r0 + wp;
    const int16_t* r2 = r1 + wp;
    int32_t* const end = acc + rows * n;
    while (acc != end) {
        int32_t* const row_end = acc + n;
        while (acc != row_end) {
            uint32_t p01, p23, p45;
            int32_t s0 = bias, s1 = bias;
            AOT_DW_LOAD2(r0, p01, p23, 8);
            p45 = aot_read32((const int8_t*)r0);
            s0 = aot_smlabt(p23, b0, aot_smlad(p01, a0, s0));
            s1 = aot_smlabt(p45, b0, aot_smlad(p23, a0, s1));
            AOT_DW_LOAD2(r1, p01, p23, 8);
            p45 = aot_read32((const int8_t*)r1);
            s0 = aot_smlabt(p23, b1, aot_smlad(p01, a1, s0));
            s1 = aot_smlabt(p45, b1, aot_smlad(p23, a1, s1));
            AOT_DW_LOAD2(r2, p01, p23, 8);
            p45 = aot_read32((const int8_t*)r2);
            s0 = aot_smlabt(p23, b2, aot_smlad(p01, a2, s0));
            s1 = aot_smlabt(p45, b2, aot_smlad(p23, a2, s1));
            acc[0] = s0;
            acc[1] = s1;
            acc += 2;
        }
        r0 += skip;
        r1 += skip;
        r2 += skip;
    }
}

/* The geometry of a chunk's requantization (set once per chunk size, the same for every channel; the asm reads the
 * first seven fields at fixed offsets). */
struct aot_dw_rq_job {
    const int32_t* acc;   /* 0: the chunk's accumulators */
    int32_t singles;      /* 4: cols % 4, done first in each row */
    int32_t quad_bytes;   /* 8: 4 * (cols - cols % 4) */
    int32_t a_skip_bytes; /* 12: 4 * (n - cols) */
    int32_t o_skip;       /* 16: row_step - cols * step */
    int32_t step;         /* 20: output column step */
    int32_t rows;         /* 24: at least 1 */
    int32_t n;            /* accumulators per row */
    int32_t cols;         /* outputs per row */
    int32_t row_step;     /* output row step */
    int32_t act_min;
    int32_t act_max;
};

#if AOT_DW_ASM
/* Full-range requantization of the job's rows of one channel into o (multiplier m, add constant add; the right shift
 * is add's trailing zeros + 1, dsp_s8.h).  Per four outputs: one LDM, four ADD-SMMLAR-ASR-SSAT, four STRB, two
 * pointer steps and the loop test. */
AOT_DW_NAKED static void aot_dw_requant_asm(const struct aot_dw_rq_job* job AOT_DW_ARG, int8_t* o AOT_DW_ARG,
                                            int32_t m AOT_DW_ARG, int32_t add AOT_DW_ARG)
{
    __asm__ volatile("push {r4-r11, lr}\n\t"
                     "sub sp, sp, #8\n\t"
                     "rbit r4, r3\n\t"
                     "clz r4, r4\n\t"
                     "add r4, r4, #1\n\t"
                     "ldr r5, [r0, #20]\n\t"
                     "mov r6, r1\n\t"
                     "ldr r1, [r0]\n\t"
                     "ldr r12, [r0, #24]\n\t"
                     "str r12, [sp]\n\t"
                     "1:\n\t"
                     "ldr r7, [r0, #4]\n\t"
                     "cbz r7, 3f\n\t"
                     "2:\n\t"
                     "ldr r8, [r1], #4\n\t"
                     "add lr, r3, r8, asr #31\n\t"
                     "smmlar r8, r8, r2, lr\n\t"
                     "asr r8, r8, r4\n\t"
                     "ssat r8, #8, r8\n\t"
                     "strb r8, [r6]\n\t"
                     "add r6, r6, r5\n\t"
                     "subs r7, r7, #1\n\t"
                     "bne 2b\n\t"
                     "3:\n\t"
                     "ldr r7, [r0, #8]\n\t"
                     "add r7, r1, r7\n\t"
                     "cmp r1, r7\n\t"
                     "beq 5f\n\t"
                     "4:\n\t"
                     "ldm r1!, {r8-r11}\n\t"
                     "add r12, r3, r8, asr #31\n\t"
                     "smmlar r8, r8, r2, r12\n\t"
                     "add lr, r3, r9, asr #31\n\t"
                     "smmlar r9, r9, r2, lr\n\t"
                     "add r12, r3, r10, asr #31\n\t"
                     "smmlar r10, r10, r2, r12\n\t"
                     "add lr, r3, r11, asr #31\n\t"
                     "smmlar r11, r11, r2, lr\n\t"
                     "asr r8, r8, r4\n\t"
                     "asr r9, r9, r4\n\t"
                     "asr r10, r10, r4\n\t"
                     "asr r11, r11, r4\n\t"
                     "ssat r8, #8, r8\n\t"
                     "ssat r9, #8, r9\n\t"
                     "ssat r10, #8, r10\n\t"
                     "ssat r11, #8, r11\n\t"
                     "strb r8, [r6]\n\t"
                     "strb r9, [r6, r5]\n\t"
                     "add r6, r6, r5, lsl #1\n\t"
                     "strb r10, [r6]\n\t"
                     "strb r11, [r6, r5]\n\t"
                     "add r6, r6, r5, lsl #1\n\t"
                     "cmp r1, r7\n\t"
                     "bne 4b\n\t"
                     "5:\n\t"
                     "ldr r12, [r0, #12]\n\t"
                     "add r1, r1, r12\n\t"
                     "ldr r12, [r0, #16]\n\t"
                     "add r6, r6, r12\n\t"
                     "ldr r12, [sp]\n\t"
                     "subs r12, r12, #1\n\t"
                     "str r12, [sp]\n\t"
                     "bne 1b\n\t"
                     "add sp, sp, #8\n\t"
                     "pop {r4-r11, pc}\n\t");
}
#endif

/* Requantizes the job's rows of one channel's accumulators into the output (multiplier m, add constant add): the asm
 * for the full int8 range on DSP cores, else clamped to the activation range. */
AOT_DW_NOINLINE static void aot_dw_requant(const struct aot_dw_rq_job* job, int8_t* o, int32_t m, int32_t add)
{
#if AOT_DW_ASM
    if (job->act_min <= -128 && job->act_max >= 127) {
        aot_dw_requant_asm(job, o, m, add);
        return;
    }
#endif
    {
        const int32_t rs = aot_dsp_shift(add);
        const int32_t cols = job->cols, step = job->step, a_skip = job->n - cols;
        const int32_t act_min = job->act_min, act_max = job->act_max;
        const int32_t* acc = job->acc;
        const int32_t* const end = acc + job->rows * job->n;
        while (acc != end) {
            const int32_t* const row_end = acc + cols;
            while (acc != row_end) {
                *o = (int8_t)aot_dsp_clamp(aot_dsp_requant_x2(*acc++, m, add, rs), act_min, act_max);
                o += step;
            }
            acc += a_skip;
            o += job->o_skip;
        }
    }
}

/* The same with TFLite's full requantization (aot_depthwise_conv2d_s8_dsp_exact): zp_shift = zp * 256 + shift, and
 * the accumulators are 2 * acc (even, |acc| < 2^30: checked by the compiler). */
AOT_DW_NOINLINE static void aot_dw_requant_exact(const struct aot_dw_rq_job* job, int8_t* o, int32_t m,
                                                 int32_t zp_shift)
{
    int32_t y, x;
    for (y = 0; y < job->rows; y++) {
        for (x = 0; x < job->cols; x++) {
            const int32_t v = aot_dsp_requant_exact(job->acc[y * job->n + x] / 2, m, zp_shift);
            o[y * job->row_step + x * job->step] = (int8_t)aot_dsp_clamp(v, job->act_min, job->act_max);
        }
    }
}

/* Copies one channel of an input row (`col_step` bytes between columns) into a plane row's int16 cells. */
static void aot_dw_copy_row(const int8_t* src, int32_t col_step, int16_t* dst, int32_t n)
{
    int16_t* const end = dst + n;
    if (n & 1) {
        *dst++ = *src;
        src += col_step;
    }
    while (dst != end) {
        const int16_t v0 = src[0];
        const int16_t v1 = src[col_step];
        dst[0] = v0;
        dst[1] = v1;
        dst += 2;
        src += 2 * col_step;
    }
}

/* The same for two neighbouring channels at once, into two planes' rows: d1 - d0 is one plane apart.
 * Two pixels' halfwords make one word; SXTB16 / SXTB16 ROR #8 of it are the two planes' cell pairs. */
AOT_HOT_INLINE void aot_dw_copy_row2(const int8_t* src, int32_t col_step, int16_t* d0, int32_t plane, int32_t n)
{
    int16_t* const end4 = d0 + (n & ~3);
    while (d0 != end4) {
        const uint32_t v = (uint32_t)aot_dw_read16(src) | ((uint32_t)aot_dw_read16(src + col_step) << 16);
        const uint32_t u =
            (uint32_t)aot_dw_read16(src + 2 * col_step) | ((uint32_t)aot_dw_read16(src + 3 * col_step) << 16);
        aot_dw_write32(d0, aot_sxtb16(v));
        aot_dw_write32(d0 + plane, aot_sxtb16_ror8(v));
        aot_dw_write32(d0 + 2, aot_sxtb16(u));
        aot_dw_write32(d0 + plane + 2, aot_sxtb16_ror8(u));
        d0 += 4;
        src += 4 * col_step;
    }
    if (n & 2) {
        const uint32_t v = (uint32_t)aot_dw_read16(src) | ((uint32_t)aot_dw_read16(src + col_step) << 16);
        aot_dw_write32(d0, aot_sxtb16(v));
        aot_dw_write32(d0 + plane, aot_sxtb16_ror8(v));
        d0 += 2;
        src += 2 * col_step;
    }
    if (n & 1) {
        d0[0] = src[0];
        d0[plane] = src[1];
    }
}

#define AOT_DW_PLANAR_NAME    aot_depthwise_conv2d_s8_dsp
#define AOT_DW_PLANAR_REQUANT aot_dw_requant
#define AOT_DW_PLANAR_FUSED   1
#include "depthwise_conv2d_s8_dsp_planar.h"
#undef AOT_DW_PLANAR_NAME
#undef AOT_DW_PLANAR_REQUANT
#undef AOT_DW_PLANAR_FUSED
#define AOT_DW_PLANAR_NAME    aot_depthwise_conv2d_s8_dsp_exact
#define AOT_DW_PLANAR_REQUANT aot_dw_requant_exact
#define AOT_DW_PLANAR_FUSED   0
#include "depthwise_conv2d_s8_dsp_planar.h"
#undef AOT_DW_PLANAR_NAME
#undef AOT_DW_PLANAR_REQUANT
#undef AOT_DW_PLANAR_FUSED
