/* int8 3x3 depthwise convolution for cores with the DSP extension, channel-vectorized form for small images with
 * many channels (a unit of its own, so that a model whose layers take only the planar kernels of
 * depthwise_conv2d_s8_dsp.c does not link it; the halfword MACs are depthwise_conv2d_s8_dsp_mac.h's).
 *
 * The planar kernels pay per channel (weights, constants, loop set-up, copying), which dominates when a channel
 * has only 9..36 outputs (MobileNet's last blocks).  aot_depthwise_conv2d_s8_dsp_c4 keeps NHWC and takes four
 * channels per input word instead: the window's input rows are read in place or from a zero-point-padded
 * NHWC band in scratch (so every tap is in range), and per output pixel and group of four channels it pairs
 * taps: for words A and B (taps ta and tb, channels 0..3 each), PKHBT(A, B << 16) holds channels 0 and 1
 * of both taps and PKHTB(B, A >> 16) channels 2 and 3; SXTB16 / SXTB16 ROR #8 of them are (x_ta, x_tb)
 * per channel, one SMLAD each with the (w_ta, w_tb) int16 pair.  Four tap pairs and one single tap
 * (SMLABB/SMLABT for channels 0 and 1, SMLATB/SMLATT for 2 and 3) per output.  A group takes two passes
 * over its taps, channels 0 and 1 then 2 and 3, so that only two accumulators are live: with GCC 12 for the
 * Cortex-M4 that is 109 instructions per group, against 115 for one pass whose four accumulators spill.
 * Weights: the model's [3][3][channels] int8 filter as it is.  Params: 12 int32 per group, per half
 * (channels c, c+1 for c = 0, then 2) the two channels' doubled bias (input zero point folded in), then per
 * channel its multiplier and add constant (dsp_s8.h).
 * Once per call the kernel builds from them one record per group in scratch, read in order by the pixel
 * loop: AOT_DW_C4_RECORD int32 words, two halves of 17 (channels 0 and 1, then 2 and 3): the two channels'
 * bias; per tap pair (0,1) (2,3) (4,5) (6,7) (t = 3 ky + kx) one (w_ta, w_tb) int16 pair per channel; tap 8
 * as (w_c, w_c+1); multipliers, add constants and right shifts (trailing zeros of the add constant + 1) of
 * the two channels; weights doubled, so the accumulators are 2 * acc as in the planar kernel.  Expanding
 * the int8 weights per output instead costs 39 more instructions per group, their pairs alone in scratch 12.
 * Scratch: 34 * channels bytes of records, then 4 * Wp * channels bytes, Wp = (out_cols - 1) * stride_c + 3
 * (three band rows, input row iy in slot iy % 3 and copied once, and a row of zero points for rows outside
 * the image); compiler/ops/depthwise_conv_2d.py mirrors this.  Rows that need no column padding are read in
 * place.  Image as it is (not transposed).
 * Requires channels % 4 == 0. */
#include "aot_sched.h"

#include "aot/kernels/depthwise_conv2d.h"
#include "dsp_s8.h"
#include "depthwise_conv2d_s8_dsp_mac.h"

/* int32 words of one group's record in scratch. */
#define AOT_DW_C4_RECORD 34

#if defined(__ARM_FEATURE_DSP)
/* (low half of a, low half of b): PKHBT; (high half of a, high half of b): PKHTB (GCC 12 spells both out). */
AOT_HOT_INLINE uint32_t aot_dw_lo_pair(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

AOT_HOT_INLINE uint32_t aot_dw_hi_pair(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(b), "r"(a));
    return r;
}

AOT_HOT_INLINE int32_t aot_smlatt(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlatt((int32_t)a, (int32_t)b, acc);
}
#else
AOT_HOT_INLINE uint32_t aot_dw_lo_pair(uint32_t a, uint32_t b)
{
    return (a & 0xFFFFu) | (b << 16);
}

AOT_HOT_INLINE uint32_t aot_dw_hi_pair(uint32_t a, uint32_t b)
{
    return (a >> 16) | (b & 0xFFFF0000u);
}

AOT_HOT_INLINE int32_t aot_smlatt(uint32_t a, uint32_t b, int32_t acc)
{
    return aot_smlabb(a >> 16, b >> 16, acc);
}
#endif

/* The GCC-only attribute that makes the two instances of the pixel loop below separate specialized copies. */
#if defined(__GNUC__)
#define AOT_DW_INLINE static inline __attribute__((always_inline))
#else
#define AOT_DW_INLINE static inline
#endif

/* Keeps GCC from hoisting the next tap pair's loads above this one's multiplies (it would then spill the
 * expanded words of all pairs: +30 instructions per group). */
#if defined(__GNUC__)
#define AOT_DW_BARRIER() __asm__ __volatile__("" ::: "memory")
#else
#define AOT_DW_BARRIER() ((void)0)
#endif

/* Half a group (channels 0 and 1 if !hi, else 2 and 3): acc a0, a1 += one pair of taps at a and b. */
#define AOT_DW_C4_PAIR(a, b)                                                                                           \
    do {                                                                                                               \
        const uint32_t va = aot_read32(a), vb = aot_read32(b);                                                         \
        const uint32_t p = hi ? aot_dw_hi_pair(va, vb) : aot_dw_lo_pair(va, vb);                                       \
        uint32_t w0, w1;                                                                                               \
        AOT_DW_LOAD2(rec, w0, w1, 8);                                                                                  \
        a0 = aot_smlad(aot_sxtb16(p), w0, a0);                                                                         \
        a1 = aot_smlad(aot_sxtb16_ror8(p), w1, a1);                                                                    \
        AOT_DW_BARRIER();                                                                                              \
    } while (0)

/* One requantized output: saturated to int8 (full) or clamped to the activation range. */
#define AOT_DW_C4_OUT(acc, m, add, rs, dst)                                                                            \
    do {                                                                                                               \
        const int32_t v_ = aot_dsp_requant_x2((acc), (int32_t)(m), (int32_t)(add), (int32_t)(rs));                     \
        (dst) = (int8_t)(full ? aot_dsp_sat8(v_) : aot_dsp_clamp(v_, act_min, act_max));                               \
    } while (0)

/* Two channels of one group (0 and 1 if !hi, else 2 and 3) of an output pixel whose window rows start at
 * t0, t1, t2 (columns cs bytes apart), from their half of the group's record (advancing *recp past it). */
AOT_DW_INLINE void aot_dw_c4_half(const int8_t* t0, const int8_t* t1, const int8_t* t2, int32_t cs,
                                  const int16_t** recp, int8_t* o, int32_t hi, int32_t full, int32_t act_min,
                                  int32_t act_max)
{
    const int16_t* rec = *recp;
    uint32_t b0, b1, m0, m1, d0, d1, r0, r1;
    int32_t a0, a1;
    AOT_DW_LOAD2(rec, b0, b1, 8);
    a0 = (int32_t)b0;
    a1 = (int32_t)b1;
    AOT_DW_C4_PAIR(t0, t0 + cs);
    AOT_DW_C4_PAIR(t0 + 2 * cs, t1);
    AOT_DW_C4_PAIR(t1 + cs, t1 + 2 * cs);
    AOT_DW_C4_PAIR(t2, t2 + cs);
    {
        /* Tap 8: SXTB16 gives channels (0, 2), ROR #8 (1, 3); the weight word is this half's two channels. */
        const uint32_t x8 = aot_read32(t2 + 2 * cs);
        const uint32_t e = aot_sxtb16(x8), f = aot_sxtb16_ror8(x8);
        const uint32_t u = aot_read32((const int8_t*)rec);
        rec += 2;
        if (hi) {
            a0 = aot_smlatb(e, u, a0);
            a1 = aot_smlatt(f, u, a1);
        } else {
            a0 = aot_smlabb(e, u, a0);
            a1 = aot_smlabt(f, u, a1);
        }
    }
    AOT_DW_LOAD2(rec, m0, m1, 8);
    AOT_DW_LOAD2(rec, d0, d1, 8);
    AOT_DW_LOAD2(rec, r0, r1, 8);
    AOT_DW_C4_OUT(a0, m0, d0, r0, o[0]);
    AOT_DW_C4_OUT(a1, m1, d1, r1, o[1]);
    *recp = rec;
}

/* All groups of four channels of one output pixel whose window rows start at t0, t1, t2 (columns cs bytes
 * apart). */
AOT_DW_INLINE void aot_dw_c4_pixel(const int8_t* t0, const int8_t* t1, const int8_t* t2, int32_t cs,
                                   const int32_t* params, int32_t groups, int8_t* o, int32_t full, int32_t act_min,
                                   int32_t act_max)
{
    const int16_t* rec = (const int16_t*)(const void*)params;
    int8_t* const end = o + 4 * groups;
    while (o != end) {
        aot_dw_c4_half(t0, t1, t2, cs, &rec, o, 0, full, act_min, act_max);
        aot_dw_c4_half(t0, t1, t2, cs, &rec, o + 2, 1, full, act_min, act_max);
        t0 += 4;
        t1 += 4;
        t2 += 4;
        o += 4;
    }
}

/* n bytes (a multiple of 4) from src to dst, two words at a time. */
static void aot_dw_copy_words(const int8_t* src, int8_t* dst, int32_t n)
{
    int8_t* const end = dst + (n & ~7);
    while (dst != end) {
        const uint32_t v0 = aot_read32(src), v1 = aot_read32(src + 4);
        memcpy(dst, &v0, 4);
        memcpy(dst + 4, &v1, 4);
        src += 8;
        dst += 8;
    }
    if (n & 4) {
        const uint32_t v = aot_read32(src);
        memcpy(dst, &v, 4);
    }
}

/* The records the pixel loop reads (AOT_DW_C4_RECORD words per group, in the order the header comment gives),
 * from the model's [3][3][channels] filter and the params (once per call). */
static void aot_dw_c4_records(const int8_t* filter, const int32_t* params, int32_t channels, int32_t* rec)
{
    int32_t g, h, t, c;
    for (g = 0; g < channels; g += 4) {
        for (h = g; h < g + 4; h += 2) {
            int16_t pair[2];
            *rec++ = params[0];
            *rec++ = params[1];
            for (t = 0; t < 8; t += 2) {
                for (c = h; c < h + 2; c++) {
                    pair[0] = (int16_t)(2 * filter[t * channels + c]);
                    pair[1] = (int16_t)(2 * filter[(t + 1) * channels + c]);
                    memcpy(rec++, pair, 4);
                }
            }
            pair[0] = (int16_t)(2 * filter[8 * channels + h]);
            pair[1] = (int16_t)(2 * filter[8 * channels + h + 1]);
            memcpy(rec++, pair, 4);
            rec[0] = params[2];
            rec[1] = params[4];
            rec[2] = params[3];
            rec[3] = params[5];
            rec[4] = aot_dsp_shift(params[3]);
            rec[5] = aot_dsp_shift(params[5]);
            rec += 6;
            params += 6;
        }
    }
}

void aot_depthwise_conv2d_s8_dsp_c4(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows,
                                    int32_t in_cols, const int8_t* filter, const int32_t* params, int8_t* output,
                                    int32_t out_rows, int32_t out_cols, int32_t stride_r, int32_t stride_c,
                                    int32_t pad_top, int32_t pad_left, int32_t input_zero_point, int32_t act_min,
                                    int32_t act_max, int32_t* scratch)
{
    const int32_t wp = (out_cols - 1) * stride_c + 3;
    const int32_t cs = channels, rs = wp * channels;
    /* Input columns the band rows hold (the others are never read by any output; none when an explicit padding
     * is wider than what the windows cover). */
    const int32_t c_end = in_cols < wp - pad_left ? in_cols : (wp - pad_left > 0 ? wp - pad_left : 0);
    /* Rows needing no column padding are read in place. */
    const int32_t direct = pad_left == 0 && in_cols >= wp;
    const int32_t groups = channels / 4;
    const int32_t full = act_min <= -128 && act_max >= 127;
    int32_t* const recs = scratch;
    int8_t* const band = (int8_t*)(scratch + AOT_DW_C4_RECORD * (channels / 4));
    const int8_t* const zp_row = band + 3 * rs;
    const uint32_t zp4 = 0x01010101u * ((uint32_t)input_zero_point & 0xFFu);
    int32_t b, i, k, y, x;

    aot_dw_c4_records(filter, params, channels, recs);
    for (i = 0; i < 4 * rs; i += 4) {
        memcpy(band + i, &zp4, 4);
    }
    for (b = 0; b < batches; b++) {
        const int8_t* const image = input + b * in_rows * in_cols * channels;
        int32_t held[3] = {-1, -1, -1}; /* input row in each band slot */
        for (y = 0; y < out_rows; y++) {
            const int8_t* rows[3];
            for (k = 0; k < 3; k++) {
                const int32_t iy = y * stride_r + k - pad_top;
                if (iy < 0 || iy >= in_rows) {
                    rows[k] = zp_row;
                } else if (direct) {
                    rows[k] = image + iy * in_cols * channels;
                } else {
                    /* Band slot iy % 3: the three rows of one window never share a slot. */
                    int8_t* const slot = band + (iy % 3) * rs;
                    if (held[iy % 3] != iy) {
                        aot_dw_copy_words(image + iy * in_cols * channels, slot + pad_left * cs, c_end * cs);
                        held[iy % 3] = iy;
                    }
                    rows[k] = slot;
                }
            }
            for (x = 0; x < out_cols; x++) {
                const int32_t off = x * stride_c * cs;
                int8_t* const o = output + ((b * out_rows + y) * out_cols + x) * channels;
                if (full) {
                    aot_dw_c4_pixel(rows[0] + off, rows[1] + off, rows[2] + off, cs, recs, groups, o, 1, act_min,
                                    act_max);
                } else {
                    aot_dw_c4_pixel(rows[0] + off, rows[1] + off, rows[2] + off, cs, recs, groups, o, 0, act_min,
                                    act_max);
                }
            }
        }
    }
}
