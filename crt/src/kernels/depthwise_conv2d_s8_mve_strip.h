/* The strip form of aot_depthwise_conv2d_s8_mve (Helium): 3x3 depthwise layers, stride 1 or 2, channel by channel,
 * one VMLADAV per output.
 *
 * A channel's input is copied, a few columns at a time, into a strip in scratch: rows of AOT_DWS_W1 (stride 1) or
 * AOT_DWS_W2 (stride 2) bytes, top to bottom, with the padding (the input zero point, which the compiler folded
 * into the bias) in place.  A 3x3 window of the strip then lies within 2 * width + 3 <= 16 consecutive bytes, so one
 * 16-byte load holds it, and a weight vector with the channel's nine taps in the lanes of their strip offsets
 * (zeros elsewhere) takes all nine products in one VMLADAV: 9 MACs for 2 instructions.  Four outputs of the channel
 * (stride 1: four adjacent columns of an output row; stride 2: two columns of two rows) are moved into one vector,
 * requantized with the channel's multiplier and shift as scalars (VQRDMULH / VRSHL by a register) and stored with a
 * byte scatter at the output's channel stride.  A strip serves every output row of its columns; the last strip of a
 * row whose width is not a multiple of the strip's columns, and the last row pair of an odd height (stride 2),
 * overlap the ones before them and store the same values again.
 *
 * Channels go in groups: a table of their constants (struct aot_dws_ch) and their strips, one after another, fill
 * the scratch the compiler gives this kernel whenever a window leaves the image (aot_dws_scratch_bytes: room for
 * up to 16 channels' strips; 16 bytes kept for the last window's load), in whole blocks of 8 channels where 8 fit;
 * per strip position every strip of the group is filled (8 channels at a time: a pixel's 8 bytes are one gather and
 * one scatter; a group under 8 channels one channel at a time), then one assembly loop runs every channel of the
 * group.  The compiler says when a layer takes this form (below).  Included by depthwise_conv2d_s8_mve_strip.c only
 * (optimised MVE builds: the loops are assembly).
 */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_STRIP_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_STRIP_H_

#include <stdint.h>

#include "mve_s8.h"

#if defined(__ARM_FEATURE_MVE) && defined(__OPTIMIZE__)

/* Strip width: stride 1, four output columns (their windows span 6 input columns); stride 2, two (5 columns). */
#define AOT_DWS_W1 6
#define AOT_DWS_W2 5

/* The scratch the compiler gives a 3x3 layer (dilation 1, stride 1 or 2 both ways) whose windows leave the image
 * (compiler/ops/common/mve_layout.py, prepare_mve_depthwise, computes the same): its filter_h rows of band_w pixels
 * (band_bytes), or, when the strip form takes the layer, at least the table entries and strips of 16
 * channels (fewer when it has fewer): a group of 8 or 16 channels spreads the per-group calls over more channels,
 * and aot_dws_fill8 fills whole blocks of 8. */
#define AOT_DWS_GROUP_MAX 16
static int32_t aot_dws_scratch_bytes(int32_t stride, int32_t channels, int32_t out_h, int32_t out_w, int32_t band_bytes)
{
    if (stride == 1 ? out_w >= 7 : (out_w >= 10 && out_h >= 2)) {
        const int32_t strip = ((out_h - 1) * stride + 3) * (stride == 1 ? AOT_DWS_W1 : AOT_DWS_W2);
        const int32_t n = channels < AOT_DWS_GROUP_MAX ? channels : AOT_DWS_GROUP_MAX;
        const int32_t want = n * (48 + strip) + 16;
        return want > band_bytes ? want : band_bytes;
    }
    return band_bytes;
}

/* A channel's entry in the table the assembly loop reads (in scratch, before the strips): its weight vector, its
 * bias in every lane, its multiplier and shift, the steps of its strip and the bytes from the end of the last step
 * to the next channel's strip. */
struct aot_dws_ch {
    int8_t w[16];    /* byte 0 */
    int32_t bias[4]; /* byte 16 */
    int32_t m, s;    /* byte 32 */
    int32_t n, skip; /* byte 40 */
};

/* The layer's constants: the clamp bounds, the scatter offsets of the four lanes' outputs, the table's end. */
struct aot_dws_k {
    int32_t lo[4];                /* byte 0 */
    int32_t hi[4];                /* byte 16 */
    uint32_t soff[4];             /* byte 32 */
    const struct aot_dws_ch* end; /* byte 48 */
};

/* One output vector: the four windows' sums (VMLADAV needs even registers: r0, r2, r4, r6, lane order 0, 1, 2, 3)
 * into q2, the bias added.  VMOV Qd[2], Qd[0], Rt, Rt2 writes Rt to lane 0 and Rt2 to lane 2 (the encoding's
 * semantics as QEMU and the hardware execute it).  A0..A3: the lanes' window offsets from the strip pointer (A0 = 0
 * with the post-increment STEP, the strip bytes of one step). */
#define AOT_DWS_SUMS(A1, A2, A3, STEP)                                                                                 \
    "vldrb.u8 q1, [%[p], #" A1 "]\n\t"                                                                                 \
    "vmladav.s8 r2, q1, q0\n\t"                                                                                        \
    "vldrb.u8 q1, [%[p], #" A2 "]\n\t"                                                                                 \
    "vmladav.s8 r4, q1, q0\n\t"                                                                                        \
    "vldrb.u8 q1, [%[p], #" A3 "]\n\t"                                                                                 \
    "vmladav.s8 r6, q1, q0\n\t"                                                                                        \
    "vldrb.u8 q1, [%[p]], #" STEP "\n\t"                                                                               \
    "vmladav.s8 r0, q1, q0\n\t"                                                                                        \
    "vmov q2[2], q2[0], r0, r4\n\t"                                                                                    \
    "vmov q2[3], q2[1], r2, r6\n\t"                                                                                    \
    "vadd.i32 q2, q2, q7\n\t"

/* TFLite's requantization with the channel's shift s: a right shift (s < 0), VQRDMULH then the rounding right
 * shift, rounding half away from zero (the -1 for negative values before VRSHL's round half up); or s >= 0, the
 * left shift then VQRDMULH (as aot_mve_requant, per lane). */
#define AOT_DWS_REQ_RIGHT                                                                                              \
    "vqrdmulh.s32 q2, q2, %[m]\n\t"                                                                                    \
    "vshr.s32 q3, q2, #31\n\t"                                                                                         \
    "vqadd.s32 q2, q2, q3\n\t"                                                                                         \
    "vrshl.s32 q2, %[s]\n\t"
#define AOT_DWS_REQ_LEFT                                                                                               \
    "vshl.s32 q2, %[s]\n\t"                                                                                            \
    "vqrdmulh.s32 q2, q2, %[m]\n\t"

/* The output of one vector: offset, clamp, scatter; the output pointer moves on by os (one step). */
#define AOT_DWS_TAIL                                                                                                   \
    "vadd.i32 q2, q2, %[off]\n\t"                                                                                      \
    "vmax.s32 q2, q2, q4\n\t"                                                                                          \
    "vmin.s32 q2, q2, q5\n\t"                                                                                          \
    "vstrb.32 q2, [%[o], q6]\n\t"                                                                                      \
    "add %[o], %[o], %[os]\n\t"

/* Every channel of the table from t to k->end, their strips one after another from p: per channel its constants,
 * then its steps (the loop of its shift's sign), then the output pointer back to the first step and on to the next
 * channel's byte.  The constant block's pointer becomes the table's end after the prologue. */
#define AOT_DWS_GROUP_ASM(SUMS)                                                                                        \
    __asm__ volatile("vldrw.u32 q4, [%[c]]\n\t"                                                                        \
                     "vldrw.u32 q5, [%[c], #16]\n\t"                                                                   \
                     "vldrw.u32 q6, [%[c], #32]\n\t"                                                                   \
                     "ldr %[c], [%[c], #48]\n"                                                                         \
                     "1:\n\t"                                                                                          \
                     "vldrw.u32 q0, [%[t]]\n\t"                                                                        \
                     "vldrw.u32 q7, [%[t], #16]\n\t"                                                                   \
                     "ldrd %[m], %[s], [%[t], #32]\n\t"                                                                \
                     "ldr r0, [%[t], #40]\n\t"                                                                         \
                     "dls lr, r0\n\t"                                                                                  \
                     "cmp %[s], #0\n\t"                                                                                \
                     "bge 3f\n"                                                                                        \
                     "2:\n\t" SUMS AOT_DWS_REQ_RIGHT AOT_DWS_TAIL "le lr, 2b\n\t"                                      \
                     "b 4f\n"                                                                                          \
                     "3:\n\t" SUMS AOT_DWS_REQ_LEFT AOT_DWS_TAIL "le lr, 3b\n"                                         \
                     "4:\n\t"                                                                                          \
                     "ldrd r0, r2, [%[t], #40]\n\t"                                                                    \
                     "mls %[o], r0, %[os], %[o]\n\t"                                                                   \
                     "add %[o], %[o], #1\n\t"                                                                          \
                     "add %[p], %[p], r2\n\t"                                                                          \
                     "add %[t], %[t], #48\n\t"                                                                         \
                     "cmp %[t], %[c]\n\t"                                                                              \
                     "bne 1b"                                                                                          \
                     : [p] "+r"(p), [o] "+r"(o), [t] "+r"(t), [c] "+r"(c), [m] "=&r"(m), [s] "=&r"(s)                  \
                     : [off] "r"(off), [os] "r"(os)                                                                    \
                     : "r0", "r2", "r4", "r6", "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc")

/* The channels of table t (up to k->end), strips from p, outputs from o (the first channel's byte). */
static __attribute__((noinline)) void aot_dws_group(const struct aot_dws_k* k, const struct aot_dws_ch* t,
                                                    const int8_t* p, int8_t* o, int32_t off, int32_t os, int stride)
{
    const struct aot_dws_k* c = k;
    int32_t m, s;
    if (stride == 1) {
        /* Lanes: output columns x..x+3 of one row (windows 1 byte apart); a step is one output row. */
        AOT_DWS_GROUP_ASM(AOT_DWS_SUMS("1", "2", "3", "6"));
    } else {
        /* Lanes: columns x, x+1 of rows y, y+1 (windows 2 bytes and 2 strip rows apart); a step is two rows. */
        AOT_DWS_GROUP_ASM(AOT_DWS_SUMS("2", "10", "12", "20"));
    }
    (void)m;
    (void)s;
}

struct aot_dws_geom {
    const int8_t* input; /* the batch's image */
    int32_t in_h, in_w, channels, pad_top, rows, width;
    int8_t zero_point;
};

/* The strips of `n` channels, one after another (strip_bytes apart): per channel the rows above the image (the
 * zero point), two image rows per pass from the image rows at src and src + a row (offsets o0 / o1, the second the
 * first plus a row's bytes: gathers, the lanes outside the image replaced by the zero point where SEL says, P0 =
 * the lanes inside), an odd last image row, the rows below; every channel in one assembly block (in C a channel's
 * set-up cost about 30 instructions, as much as its rows on MobileNet's 12x12 stride-2 layer).  The row counts at
 * %[k]: rows above, row pairs, an odd row (0 or 1), rows below.  VSTRB.16 takes a low base register. */
/* clang-format off */
#define AOT_DWS_FILL_ASM(W, SEL0, SEL1) \
    __asm__ volatile( \
        "vmsr p0, %[in]\n" \
        "1:\n\t" \
        "mov %[d], %[dc]\n\t" \
        "mov %[s], %[sc]\n\t" \
        "ldr lr, [%[k]]\n\t" \
        "wls lr, lr, 3f\n" \
        "2:\n\t" \
        "vstrb.16 %q[zp], [%[d]], #" W "\n\t" \
        "le lr, 2b\n" \
        "3:\n\t" \
        "ldr lr, [%[k], #4]\n\t" \
        "wls lr, lr, 5f\n" \
        "4:\n\t" \
        "vldrb.s16 q0, [%[s], %q[o0]]\n\t" \
        "vldrb.s16 q1, [%[s], %q[o1]]\n\t" \
        "add %[s], %[s], %[step]\n\t" \
        SEL0 \
        SEL1 \
        "vstrb.16 q0, [%[d]], #" W "\n\t" \
        "vstrb.16 q1, [%[d]], #" W "\n\t" \
        "le lr, 4b\n" \
        "5:\n\t" \
        "ldr lr, [%[k], #8]\n\t" \
        "cmp lr, #0\n\t" \
        "beq 6f\n\t" \
        "vldrb.s16 q0, [%[s], %q[o0]]\n\t" \
        SEL0 \
        "vstrb.16 q0, [%[d]], #" W "\n" \
        "6:\n\t" \
        "ldr lr, [%[k], #12]\n\t" \
        "wls lr, lr, 8f\n" \
        "7:\n\t" \
        "vstrb.16 %q[zp], [%[d]], #" W "\n\t" \
        "le lr, 7b\n" \
        "8:\n\t" \
        "add %[dc], %[dc], %[sb]\n\t" \
        "add %[sc], %[sc], #1\n\t" \
        "subs %[n], %[n], #1\n\t" \
        "bne 1b" \
        : [dc] "+r"(dc), [sc] "+r"(sc), [n] "+r"(n), [d] "=&l"(d), [s] "=&r"(sp) \
        : [o0] "w"(o0), [o1] "w"(o1), [zp] "w"(zp), [k] "r"(counts), [step] "r"(2 * row_bytes), \
          [sb] "r"(strip_bytes), [in] "r"((uint32_t)inside) \
        : "lr", "q0", "q1", "memory", "cc")
/* clang-format on */
#define AOT_DWS_SEL0 "vpsel q0, q0, %q[zp]\n\t"
#define AOT_DWS_SEL1 "vpsel q1, q1, %q[zp]\n\t"

/* The image rows of 8 channels' strips, column by column (w columns from sc, ch bytes apart, to dc, dc + 1, ...),
 * three rows per pass: a gather of the 8 channels' bytes of one pixel (contiguous in the image; offsets lo0..lo2,
 * a row's bytes apart) and a scatter to their strips (offsets so0..so2: strip_bytes apart, the rows a strip row
 * apart), then the last one or two rows. */
static __attribute__((noinline)) void aot_dws_fill8_cols(const int8_t* sc, int8_t* dc, int32_t w, int32_t ch,
                                                         int32_t triples, int32_t rest, int32_t row3, int32_t srow3,
                                                         const uint16x8_t* off)
{
    const int8_t* s;
    int8_t* d;
    __asm__ volatile(
        "vldrw.u32 q1, [%[off]]\n\t"
        "vldrw.u32 q2, [%[off], #16]\n\t"
        "vldrw.u32 q3, [%[off], #32]\n\t"
        "vldrw.u32 q4, [%[off], #48]\n\t"
        "vldrw.u32 q5, [%[off], #64]\n\t"
        "vldrw.u32 q6, [%[off], #80]\n"
        "1:\n\t"
        "mov %[s], %[sc]\n\t"
        "mov %[d], %[dc]\n\t"
        "wls lr, %[n3], 3f\n"
        "2:\n\t"
        "vldrb.u16 q0, [%[s], q1]\n\t"
        "vstrb.16 q0, [%[d], q4]\n\t"
        "vldrb.u16 q0, [%[s], q2]\n\t"
        "vstrb.16 q0, [%[d], q5]\n\t"
        "vldrb.u16 q0, [%[s], q3]\n\t"
        "vstrb.16 q0, [%[d], q6]\n\t"
        "add %[s], %[s], %[row3]\n\t"
        "add %[d], %[d], %[srow3]\n\t"
        "le lr, 2b\n"
        "3:\n\t"
        "cmp %[rest], #0\n\t"
        "beq 4f\n\t"
        "vldrb.u16 q0, [%[s], q1]\n\t"
        "vstrb.16 q0, [%[d], q4]\n\t"
        "cmp %[rest], #1\n\t"
        "beq 4f\n\t"
        "vldrb.u16 q0, [%[s], q2]\n\t"
        "vstrb.16 q0, [%[d], q5]\n"
        "4:\n\t"
        "add %[sc], %[sc], %[ch]\n\t"
        "add %[dc], %[dc], #1\n\t"
        "subs %[w], %[w], #1\n\t"
        "bne 1b"
        : [sc] "+r"(sc), [dc] "+r"(dc), [w] "+r"(w), [s] "=&r"(s), [d] "=&r"(d)
        : [off] "r"(off), [n3] "r"(triples), [rest] "r"(rest), [row3] "r"(row3), [srow3] "r"(srow3), [ch] "r"(ch)
        : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "memory", "cc");
    (void)s;
    (void)d;
}

/* The strips of count >= 8 channels, 8 channels at a time (the last block overlapping the one before it): a
 * pixel's 8 channels (contiguous in the image) are one gather and one scatter to their strips, where the
 * per-channel fill needs a gather per strip row of one channel; the rows above and below the image and the columns
 * left or right of it the zero point.  counts: as for AOT_DWS_FILL_ASM. */
static void aot_dws_fill8(int8_t* strips, const struct aot_dws_geom* g, int32_t x0, int32_t c0, int32_t count,
                          int32_t strip_bytes, const int32_t* counts)
{
    const int32_t ch = g->channels;
    const int32_t row_bytes = g->in_w * ch;
    const int32_t w = g->width;
    const int32_t first = counts[0];
    const int32_t image_rows = 2 * counts[1] + counts[2];
    const int32_t end = first + image_rows;
    const uint16x8_t soff = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)strip_bytes);
    const uint16x8_t lane = vidupq_n_u16(0, 1);
    const uint16x8_t zp = vreinterpretq_u16_s16(vdupq_n_s16(g->zero_point));
    const int32_t j_lo = x0 < 0 ? -x0 : 0;                    /* the strip's first column in the image */
    const int32_t j_hi = g->in_w - x0 < w ? g->in_w - x0 : w; /* past its last */
    uint16x8_t off[6];
    int32_t cb = 0;
    off[0] = lane;
    off[1] = vaddq_n_u16(lane, (uint16_t)row_bytes);
    off[2] = vaddq_n_u16(lane, (uint16_t)(2 * row_bytes));
    off[3] = soff;
    off[4] = vaddq_n_u16(soff, (uint16_t)w);
    off[5] = vaddq_n_u16(soff, (uint16_t)(2 * w));
    for (;;) {
        int8_t* const d = strips + cb * strip_bytes;
        int32_t r, j;
        for (r = 0; r < first; r++) {
            for (j = 0; j < w; j++) {
                vstrbq_scatter_offset_u16((uint8_t*)d + r * w + j, soff, zp);
            }
        }
        if (j_hi > j_lo) {
            aot_dws_fill8_cols(g->input + (first - g->pad_top) * row_bytes + (x0 + j_lo) * ch + c0 + cb,
                               d + first * w + j_lo, j_hi - j_lo, ch, image_rows / 3, image_rows % 3, 3 * row_bytes,
                               3 * w, off);
        }
        for (j = 0; j < w; j++) {
            if (j == j_lo && j_hi > j_lo) {
                j = j_hi - 1; /* the columns in the image, filled above */
                continue;
            }
            for (r = first; r < end; r++) {
                vstrbq_scatter_offset_u16((uint8_t*)d + r * w + j, soff, zp);
            }
        }
        for (r = end; r < g->rows; r++) {
            for (j = 0; j < w; j++) {
                vstrbq_scatter_offset_u16((uint8_t*)d + r * w + j, soff, zp);
            }
        }
        if (cb + 8 == count) {
            break;
        }
        cb = cb + 16 <= count ? cb + 8 : count - 8;
    }
}

/* The strips of channels c0 .. c0 + count - 1 (strip_bytes apart from strips on) of input columns x0 .. x0 + width - 1
 * (any of them may be padding), rows -pad_top .. rows - pad_top - 1: per row one gather of the row's columns
 * (offsets clamped into the image, the lanes outside replaced by the zero point) and one 8-byte store (the next row
 * overwrites the extra bytes). */
static void aot_dws_fill(int8_t* strips, const struct aot_dws_geom* g, int32_t x0, int32_t c0, int32_t count,
                         int32_t strip_bytes)
{
    const int32_t row_bytes = g->in_w * g->channels;
    const int32_t first = g->pad_top < g->rows ? g->pad_top : g->rows; /* rows above the image */
    const int32_t end0 = g->pad_top + g->in_h;                         /* first row below it */
    const int32_t end = end0 < g->rows ? end0 : g->rows;
    const int32_t pairs = (end - first) >> 1;
    const int32_t counts[4] = {first, pairs, (end - first) & 1, g->rows - end};
    const int16x8_t zp = vdupq_n_s16(g->zero_point);
    const int16x8_t col = vaddq_n_s16(vreinterpretq_s16_u16(vidupq_n_u16(0, 1)), (int16_t)x0);
    const int16x8_t clamped = vminq_s16(vmaxq_s16(col, vdupq_n_s16(0)), vdupq_n_s16((int16_t)(g->in_w - 1)));
    const uint16x8_t o0 = vreinterpretq_u16_s16(vmulq_n_s16(clamped, (int16_t)g->channels));
    const uint16x8_t o1 = vaddq_n_u16(o0, (uint16_t)row_bytes);
    /* Lanes past the strip's width are stored over by the next row: only the others need the zero point. */
    const mve_pred16_t inside = vcmpeqq_s16(col, clamped) | (mve_pred16_t)~vctp16q((uint32_t)g->width);
    int8_t* dc = strips;
    const int8_t* sc = g->input + c0;
    int32_t n = count;
    int8_t* d;
    const int8_t* sp;
    if (count <= 0) {
        return;
    }
    if (count >= 8 && 7 * strip_bytes + 2 * AOT_DWS_W1 <= 65535 && 2 * row_bytes + 7 <= 65535) {
        aot_dws_fill8(strips, g, x0, c0, count, strip_bytes, counts);
        return;
    }
    if (g->width == AOT_DWS_W1 && inside == 0xFFFF) {
        AOT_DWS_FILL_ASM("6", "", "");
    } else if (g->width == AOT_DWS_W1) {
        AOT_DWS_FILL_ASM("6", AOT_DWS_SEL0, AOT_DWS_SEL1);
    } else if (inside == 0xFFFF) {
        AOT_DWS_FILL_ASM("5", "", "");
    } else {
        AOT_DWS_FILL_ASM("5", AOT_DWS_SEL0, AOT_DWS_SEL1);
    }
    (void)d;
    (void)sp;
}

/* When the strip form runs a layer (3x3, dilation 1, stride_h == stride_w of 1 or 2, some window leaving the image)
 * is the compiler's choice (compiler/ops/common/mve_layout.py, dws_fits): one channel's table entry, its strip and the
 * last load's 16 bytes fit the scratch, the gather offsets (two image rows) fit 16 bits, and the output is at least
 * 7 columns wide at stride 1, 10 columns and 2 rows at stride 2.  Per strip and channel the fill and the constants
 * cost a few dozen instructions: on narrower outputs more than the 3x3 pair loop (-O2, instructions per MAC, strip
 * form against pair loop: stride 1, 7x7x256 1.34 / 1.57, 6x6x128 1.68 / 1.44; stride 2 to 12x12x32 1.33 / 1.67, to
 * 7x7x16 2.47 / 2.31, to 6x6x64 1.87 / 1.83). */

/* Steps of every channel's strip (n) and the bytes from the end of its last step to the next strip (skip). */
static void aot_dws_steps(struct aot_dws_ch* t, int32_t count, int32_t n, int32_t skip)
{
    int32_t i;
    for (i = 0; i < count; i++) {
        t[i].n = n;
        t[i].skip = skip;
    }
}

/* The whole batch image in strip form, channels in groups that fit the scratch (their table, then their strips):
 * per group the table, then per strip position every channel's strip filled and all of them run in one call. */
static void aot_dws_image(const struct aot_dws_geom* g, const int8_t* filter, const struct aot_mve_rq* rq, int8_t* out,
                          int32_t out_h, int32_t out_w, int32_t stride, int32_t pad_left, int8_t* scratch,
                          int32_t scratch_bytes)
{
    struct aot_dws_k k;
    struct aot_dws_ch* const table = (struct aot_dws_ch*)(void*)scratch;
    const int32_t ch = g->channels;
    const int32_t cols = stride == 1 ? 4 : 2; /* output columns per strip */
    const int32_t rows_step = stride == 1 ? 1 : 2;
    const int32_t steps = out_h / rows_step;
    const int32_t step_bytes = rows_step * stride * g->width;
    const int32_t os = rows_step * out_w * ch;
    const int32_t strip_bytes = g->rows * g->width;
    const int32_t fit = (scratch_bytes - 16) / ((int32_t)sizeof(struct aot_dws_ch) + strip_bytes);
    /* Whole blocks of 8 channels where the scratch holds 8 (aot_dws_fill8's blocks do not overlap then). */
    const int32_t per_group = fit >= 8 && ch >= 8 ? fit & ~7 : fit;
    /* A channel's weight vector in two gathers of 8 lanes from the filter (lane ky * width + kx: tap ky * 3 + kx,
     * ch bytes apart; the other lanes zero): the byte-by-byte copy cost about 60 instructions a channel. */
    uint16_t tap_off[16] = {0};
    uint32_t tap_bits = 0;
    mve_pred16_t lanes_lo, lanes_hi;
    uint16x8_t off_lo, off_hi;
    int32_t c0, c, x, ky, kx;
    for (ky = 0; ky < 3; ky++) {
        for (kx = 0; kx < 3; kx++) {
            const int32_t lane = ky * g->width + kx;
            tap_off[lane] = (uint16_t)((ky * 3 + kx) * ch);
            tap_bits |= 3u << (2 * lane); /* a 16-bit lane's two predicate bits */
        }
    }
    off_lo = vld1q_u16(tap_off);
    off_hi = vld1q_u16(tap_off + 8);
    lanes_lo = (mve_pred16_t)(tap_bits & 0xFFFFu);
    lanes_hi = (mve_pred16_t)(tap_bits >> 16);
    vstrwq_s32(k.lo, vdupq_n_s32(rq->act_min));
    vstrwq_s32(k.hi, vdupq_n_s32(rq->act_max));
    if (stride == 1) {
        vstrwq_u32(k.soff, vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)ch));
    } else {
        const uint32_t lane_off[4] = {0u, (uint32_t)ch, (uint32_t)(out_w * ch), (uint32_t)(out_w * ch + ch)};
        vstrwq_u32(k.soff, vld1q_u32(lane_off));
    }
    for (c0 = 0; c0 < ch; c0 += per_group) {
        const int32_t n = ch - c0 < per_group ? ch - c0 : per_group;
        int8_t* const strips = scratch + n * (int32_t)sizeof(struct aot_dws_ch);
        k.end = table + n;
        for (c = 0; c < n; c++) {
            struct aot_dws_ch* e = &table[c];
            vstrbq_s16(e->w, vldrbq_gather_offset_z_s16(filter + c0 + c, off_lo, lanes_lo));
            vstrbq_s16(e->w + 8, vldrbq_gather_offset_z_s16(filter + c0 + c, off_hi, lanes_hi));
            vstrwq_s32(e->bias, vdupq_n_s32(rq->bias[c0 + c]));
            e->m = rq->multiplier[c0 + c];
            e->s = rq->shift[c0 + c];
        }
        aot_dws_steps(table, n, steps, strip_bytes - steps * step_bytes);
        for (x = 0; x < out_w; x += cols) {
            const int32_t x1 = x + cols <= out_w ? x : out_w - cols; /* the last strip overlaps */
            int8_t* o = out + x1 * ch + c0;
            aot_dws_fill(strips, g, x1 * stride - pad_left, c0, n, strip_bytes);
            aot_dws_group(&k, table, strips, o, rq->out_offset, os, stride);
            if (steps * rows_step < out_h) {
                /* Stride 2, an odd height: the last step again from row out_h - 2. */
                const int32_t from = (out_h - 2) * stride * g->width;
                aot_dws_steps(table, n, 1, strip_bytes - step_bytes);
                aot_dws_group(&k, table, strips + from, o + (out_h - 2) * out_w * ch, rq->out_offset, os, stride);
                aot_dws_steps(table, n, steps, strip_bytes - steps * step_bytes);
            }
        }
    }
}

#endif

#endif /* AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_STRIP_H_ */
