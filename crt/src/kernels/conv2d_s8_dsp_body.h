/* The int8 DSP convolution's shared body (conv2d_s8_dsp.c and its _sat, _exact, _k8 ... _k27, _add units; _t2 takes
 * its types and helpers, not its tile): im2col, the GEMM of a tile and the layer's loop, with the macros that
 * instantiate a GEMM (AOT_CONV_GEMM) and an entry point (AOT_CONV_DSP_ENTRY).  Each unit instantiates its own entry
 * points, so that an image links only the units its layers call (without -ffunction-sections a unit is linked whole).
 * Everything here is static; the units include aot_sched.h first, before this header
 * (tests/compiler/test_crt_codegen.py).  The layout, scratch and requantization contract is conv2d_s8_dsp.c's.
 */
#ifndef AOT_KERNELS_CONV2D_S8_DSP_BODY_H_
#define AOT_KERNELS_CONV2D_S8_DSP_BODY_H_

#include "aot/kernels/conv2d.h"
#include "add_s8_elem.h"
#include "dsp_s8.h"

struct aot_conv_geom {
    const int8_t* input;
    int32_t in_h, in_w, in_c, filter_h, filter_w, stride_h, stride_w, dilation_h, dilation_w;
    int32_t pad_top, pad_left, zero_point, out_h, out_w;
};

/* `rows` runs of `n` bytes, `step` apart in the input, one after the other in dst (inlined with n constant). */
AOT_ALWAYS_INLINE void aot_copy_rows(int8_t* dst, const int8_t* src, int32_t step, int32_t rows, int32_t n)
{
    int32_t i;
    for (; rows > 0; rows--) {
        for (i = 0; i < n; i++) {
            dst[i] = src[i];
        }
        dst += n;
        src += step;
    }
}

/* Output pixels per tile: the GEMM multiplies AOT_CONV_PX pixels by two output channels, so each weight word is
 * loaded and extended once per three pixels.  The tile buffer holds per quad of K the (xa, xc) pair of each pixel,
 * pixel after pixel (AOT_CONV_QW words per quad). */
#define AOT_CONV_PX 3
#define AOT_CONV_QW (2 * AOT_CONV_PX)

/* Expands one input quad into a pixel's slot (xa, xc), advancing both; adds sum(x0 + x2). */
AOT_HOT_INLINE void aot_conv_expand1(const int8_t** src, uint32_t** dst, int32_t* sum)
{
    const uint32_t v = aot_read32(*src);
    const uint32_t xa = aot_expand_xa(v);
    (*dst)[0] = xa;
    (*dst)[1] = aot_expand_xc(v);
    *sum = aot_smlad(xa, 0x00010001u, *sum);
    *src += 4;
    *dst += AOT_CONV_QW;
}

/* Expands `quads` input quads from src into every AOT_CONV_QW-th word pair of dst (the pixel's slot); adds
 * sum(x0 + x2). */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
/* One quad: LDR (any alignment), SXTB16, REV16 and EOR (aot_expand_xa / _xc), the sum's SMLAD, one STRD to the slot:
 * 6 instructions (GCC's loop took 7.5 and its calls more). */
#define AOT_CONV_EXPAND_ASM                                                                                            \
    "ldr %[v], [%[src]], #4\n\t"                                                                                       \
    "sxtb16 %[xa], %[v]\n\t"                                                                                           \
    "rev16 %[xc], %[v]\n\t"                                                                                            \
    "eor %[xc], %[xc], %[k]\n\t"                                                                                       \
    "smlad %[s], %[xa], %[ones], %[s]\n\t"                                                                             \
    "strd %[xa], %[xc], [%[dst]], #24\n\t"

AOT_ALWAYS_INLINE uint32_t* aot_conv_expand_body(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum)
{
    const int8_t* const end = src + 4 * quads;
    int32_t s = *sum;
    uint32_t v, xa, xc;
    /* LSLS: bit 1 of the count in C (two quads), bit 0 in N (one), before the four-quad passes; nothing in a quad
     * sets the flags. */
    __asm__("lsls %[v], %[n], #31\n\t"
            "bcc 2f\n\t" AOT_CONV_EXPAND_ASM AOT_CONV_EXPAND_ASM "2:\n\t"
            "bpl 3f\n\t" AOT_CONV_EXPAND_ASM "3:\n\t"
            "cmp %[src], %[end]\n\t"
            "beq 4f\n"
            "1:\n\t" AOT_CONV_EXPAND_ASM AOT_CONV_EXPAND_ASM AOT_CONV_EXPAND_ASM AOT_CONV_EXPAND_ASM
            "cmp %[src], %[end]\n\t"
            "bne 1b\n"
            "4:"
            : [src] "+r"(src), [dst] "+r"(dst), [s] "+r"(s), [v] "=&r"(v), [xa] "=&r"(xa), [xc] "=&r"(xc)
            : [n] "r"(quads), [end] "r"(end), [k] "r"(0xFF80FF80u), [ones] "r"(0x00010001u)
            : "cc", "memory");
    *sum = s;
    return dst;
}
#else
AOT_ALWAYS_INLINE uint32_t* aot_conv_expand_body(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum)
{
    const int8_t* const end = src + 4 * quads;
    int32_t s = *sum;
    if (quads & 1) {
        aot_conv_expand1(&src, &dst, &s);
    }
    while (src != end) {
        aot_conv_expand1(&src, &dst, &s);
        aot_conv_expand1(&src, &dst, &s);
    }
    *sum = s;
    return dst;
}
#endif

/* Out of line once for every entry unit, in conv2d_s8_dsp_rows.c (external linkage: an image whose layers call
 * several units links one copy). */
uint32_t* aot_conv_expand(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum);
int32_t aot_conv_im2col(const struct aot_conv_geom* g, int32_t pixel, uint32_t* pairs, int32_t slot, int8_t* gather);

/* Requantization of a block: per channel multiplier and add constant (dsp_s8.h), the activation range,
 * and whether that range is all of int8 (then one saturation clamps). */
struct aot_dsp_rq {
    const int32_t* multiplier;
    const int32_t* add;
    int32_t act_min, act_max, full;
};

/* One tile of output pixels: each pixel's correction 128 * sum(x0 + x2) (aot_conv_im2col), its output row and, with a
 * fused residual ADD, its residual row (same index as the outputs; it may be the output buffer itself).  A part tile
 * repeats its last pixel in the remaining slots, which compute and store the same values. */
struct aot_conv_tile {
    int32_t corr[AOT_CONV_PX];
    int8_t* out[AOT_CONV_PX];
    const int8_t* res[AOT_CONV_PX];
};

/* The tile's MACs: a[2 p + j] += pixel p times channel j (of the pair) over `quads` quads of K.  Weights: per quad the
 * two channels' raw words (one LDRD); inputs: per quad (xa, xc) of each pixel.  18 instructions per 24 MACs. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
/* One asm body, so that -O2 and -Os produce the same loop: the six sums, the four weight values, the input pair and
 * the two pointers take 14 registers (all there are without a frame pointer: unoptimized builds, which keep one, take
 * the C loop below); the quad count and the end of the inputs are read from the stack.  SMLAD, SXTB16 and LDRD leave
 * the flags alone, so the flags of the first LSLS (bit 1 of the count in C, bit 0 in N) pick the one to three quads
 * before the four-quad passes. */
#define AOT_CONV_QUAD_ASM                                                                                              \
    "ldrd %[w0], %[w1], [%[wp]], #8\n\t"                                                                               \
    "ldrd %[xa], %[xc], [%[xp]], #8\n\t"                                                                               \
    "sxtb16 %[e0], %[w0], ror #8\n\t"                                                                                  \
    "sxtb16 %[e1], %[w1], ror #8\n\t"                                                                                  \
    "smlad %[a0], %[w0], %[xa], %[a0]\n\t"                                                                             \
    "smlad %[a1], %[w1], %[xa], %[a1]\n\t"                                                                             \
    "smlad %[a0], %[e0], %[xc], %[a0]\n\t"                                                                             \
    "smlad %[a1], %[e1], %[xc], %[a1]\n\t"                                                                             \
    "ldrd %[xa], %[xc], [%[xp]], #8\n\t"                                                                               \
    "smlad %[a2], %[w0], %[xa], %[a2]\n\t"                                                                             \
    "smlad %[a3], %[w1], %[xa], %[a3]\n\t"                                                                             \
    "smlad %[a2], %[e0], %[xc], %[a2]\n\t"                                                                             \
    "smlad %[a3], %[e1], %[xc], %[a3]\n\t"                                                                             \
    "ldrd %[xa], %[xc], [%[xp]], #8\n\t"                                                                               \
    "smlad %[a4], %[w0], %[xa], %[a4]\n\t"                                                                             \
    "smlad %[a5], %[w1], %[xa], %[a5]\n\t"                                                                             \
    "smlad %[a4], %[e0], %[xc], %[a4]\n\t"                                                                             \
    "smlad %[a5], %[e1], %[xc], %[a5]\n\t"

#define AOT_CONV_ASM_OPERANDS                                                                                          \
    [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [a4] "+r"(a4), [a5] "+r"(a5), [wp] "+r"(w),            \
        [xp] "+r"(x), [w0] "=&r"(w0), [w1] "=&r"(w1), [e0] "=&r"(e0), [e1] "=&r"(e1), [xa] "=&r"(xa), [xc] "=&r"(xc)

/* clang-format off */
/* Any number of quads (kq = -1: `quads`, read at run time) or, for the unrolled small layers, the literal kq.
 * (Not clang-formatted: it would glue the operand macro to the colons.) */
AOT_ALWAYS_INLINE void aot_conv_mac_3x2(const uint32_t** wp, const uint32_t* x, int32_t quads, int32_t kq, int32_t* a)
{
    const uint32_t* w = *wp;
    int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
    uint32_t w0, w1, e0, e1, xa, xc;
    if (kq == 2) {
        __asm__(AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM : AOT_CONV_ASM_OPERANDS : : "memory");
    } else if (kq == 4) {
        __asm__(AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM
                : AOT_CONV_ASM_OPERANDS
                :
                : "memory");
    } else if (kq == 6) {
        __asm__(AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM
                    AOT_CONV_QUAD_ASM
                : AOT_CONV_ASM_OPERANDS
                :
                : "memory");
    } else {
        const uint32_t* const xend = x + AOT_CONV_QW * quads;
        __asm__("ldr %[xa], %[n]\n\t"
                "lsls %[xa], %[xa], #31\n\t"
                "bcc 3f\n\t" AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM "3:\n\t"
                "bpl 4f\n\t" AOT_CONV_QUAD_ASM "4:\n\t"
                "ldr %[xa], %[xend]\n\t"
                "cmp %[xp], %[xa]\n\t"
                "beq 5f\n"
                "1:\n\t" AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM AOT_CONV_QUAD_ASM
                "ldr %[xa], %[xend]\n\t"
                "cmp %[xp], %[xa]\n\t"
                "bne 1b\n"
                "5:"
                : AOT_CONV_ASM_OPERANDS
                : [n] "m"(quads), [xend] "m"(xend)
                : "cc", "memory");
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
    a[4] = a4;
    a[5] = a5;
    *wp = w;
}
/* clang-format on */
#else
AOT_ALWAYS_INLINE void aot_conv_mac_3x2(const uint32_t** wp, const uint32_t* x, int32_t quads, int32_t kq, int32_t* a)
{
    const uint32_t* const xend = x + AOT_CONV_QW * (kq > 0 ? kq : quads);
    const uint32_t* w = *wp;
    while (x != xend) {
        uint32_t w0, w1, e0, e1, xa, xc;
        aot_load2(&w, &w0, &w1);
        e0 = aot_sxtb16_ror8(w0);
        e1 = aot_sxtb16_ror8(w1);
        aot_load2(&x, &xa, &xc);
        a[0] = aot_smlad(e0, xc, aot_smlad(w0, xa, a[0]));
        a[1] = aot_smlad(e1, xc, aot_smlad(w1, xa, a[1]));
        aot_load2(&x, &xa, &xc);
        a[2] = aot_smlad(e0, xc, aot_smlad(w0, xa, a[2]));
        a[3] = aot_smlad(e1, xc, aot_smlad(w1, xa, a[3]));
        aot_load2(&x, &xa, &xc);
        a[4] = aot_smlad(e0, xc, aot_smlad(w0, xa, a[4]));
        a[5] = aot_smlad(e1, xc, aot_smlad(w1, xa, a[5]));
    }
    *wp = w;
}
#endif

/* The channel pairs of a tile with the full int8 range and no fused ADD, as one assembly routine per tile
 * (aot_conv_pairs): per pair the accumulators preset to the biases, the MAC passes of AOT_CONV_QUAD_ASM entered
 * mid-pass for any quad count (no count dispatch), then the six outputs requantized and stored without leaving
 * registers.  The pixel correction is folded into the doubling (RSB: 2 acc - 2 corr, as aot_dsp_requant_x2 takes
 * it), and the right shift rs = ctz(add) + 1 is the ASR by ctz(add) and SSAT's own ASR #1.  GCC's code for the same
 * pair spent about 100 instructions outside the MAC loop (preset, count dispatch, requantization constants reloaded
 * and shifts recomputed, spills); this one spends 59.  A naked function, so -O2 and -Os run the same code. */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
#define AOT_CONV_PAIRS_ASM 1

/* The record aot_conv_pairs copies onto its stack frame (offsets fixed: the asm reads them). */
struct aot_conv_job {
    int8_t* out[AOT_CONV_PX];   /* 0, 4, 8: each pixel's output row at channel 0; advanced by 2 per pair */
    int8_t* out0_end;           /* 12: out[0] after the last pair */
    const int32_t* multiplier;  /* 16 */
    const int32_t* add;         /* 20 */
    const int32_t* bias;        /* 24 */
    int32_t corr2[AOT_CONV_PX]; /* 28, 32, 36: 2 * the pixel's correction */
    const uint32_t* pairs;      /* 40: the tile buffer */
    const uint32_t* xend;       /* 44: its end (quads slots) */
    int32_t quads;              /* 48: at least 1; the frame keeps the loop's entry address here */
    const uint32_t* filter;     /* 52: the first pair's weights */
};

/* One output of channel j in place (multiplier m, add constant d, ctz(d) in s); lr is free. */
#define AOT_CONV_REQ(a, m, d, s)                                                                                       \
    "add lr, " d ", " a ", asr #31\n\t"                                                                                \
    "smmlar " a ", " a ", " m ", lr\n\t"                                                                               \
    "asr " a ", " a ", " s "\n\t"                                                                                      \
    "ssat " a ", #8, " a ", asr #1\n\t"

/* One quad of the tile's MACs (AOT_CONV_QUAD_ASM with its registers fixed): a0..a5 in r0..r5, weights r6, r7 and
 * their odd lanes r8, r9, the input pair r10, r11, the weight pointer r12, the input pointer lr.  Every instruction is
 * 32 bits wide: 72 bytes per quad, which the entry arithmetic relies on. */
#define AOT_CONV_QUAD_FIXED                                                                                            \
    "ldrd r6, r7, [r12], #8\n\t"                                                                                       \
    "ldrd r10, r11, [lr], #8\n\t"                                                                                      \
    "sxtb16 r8, r6, ror #8\n\t"                                                                                        \
    "sxtb16 r9, r7, ror #8\n\t"                                                                                        \
    "smlad r0, r6, r10, r0\n\t"                                                                                        \
    "smlad r1, r7, r10, r1\n\t"                                                                                        \
    "smlad r0, r8, r11, r0\n\t"                                                                                        \
    "smlad r1, r9, r11, r1\n\t"                                                                                        \
    "ldrd r10, r11, [lr], #8\n\t"                                                                                      \
    "smlad r2, r6, r10, r2\n\t"                                                                                        \
    "smlad r3, r7, r10, r3\n\t"                                                                                        \
    "smlad r2, r8, r11, r2\n\t"                                                                                        \
    "smlad r3, r9, r11, r3\n\t"                                                                                        \
    "ldrd r10, r11, [lr], #8\n\t"                                                                                      \
    "smlad r4, r6, r10, r4\n\t"                                                                                        \
    "smlad r5, r7, r10, r5\n\t"                                                                                        \
    "smlad r4, r8, r11, r4\n\t"                                                                                        \
    "smlad r5, r9, r11, r5\n\t"

/* aligned(4): the ADR is resolved in the object assuming the function's address is the one it has there modulo 4. */
#if defined(__clang__)
#define AOT_CONV_NAKED __attribute__((naked, noinline, aligned(4)))
#else
#define AOT_CONV_NAKED __attribute__((naked, noinline, noipa, aligned(4)))
#endif

/* Every channel pair of one tile (conv2d_s8_dsp_rows.c). */
void aot_conv_pairs(const struct aot_conv_job* job);

/* Runs aot_conv_pairs over the tile's channel pairs; returns the channels done (out_c rounded down to even). */
AOT_ALWAYS_INLINE int32_t aot_conv_pairs_run(const uint32_t* pairs, int32_t quads, const uint32_t* filter,
                                             const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,
                                             const struct aot_conv_tile* tile)
{
    struct aot_conv_job job;
    const int32_t even = out_c & ~(int32_t)1;
    int32_t s;
    for (s = 0; s < AOT_CONV_PX; s++) {
        job.out[s] = tile->out[s];
        job.corr2[s] = (int32_t)((uint32_t)tile->corr[s] * 2u);
    }
    job.out0_end = tile->out[0] + even;
    job.multiplier = rq->multiplier;
    job.add = rq->add;
    job.bias = bias;
    job.pairs = pairs;
    job.xend = pairs + AOT_CONV_QW * quads;
    job.quads = quads;
    job.filter = filter;
    aot_conv_pairs(&job);
    return even;
}
#else
#define AOT_CONV_PAIRS_ASM 0
#endif

/* The fused ADD of three elements when neither input has the multiplier 1/2 (parameters the compiler does not
 * produce for int8 scales, see add_s8_elem.h): out of line, it only has to be right. */
AOT_NOINLINE void aot_conv_add3_generic(int32_t* v0, int32_t* v1, int32_t* v2, int32_t r0, int32_t r1, int32_t r2,
                                        const struct aot_add_s8_params* add)
{
    *v0 = aot_add_s8_elem(*v0, r0, add, 0);
    *v1 = aot_add_s8_elem(*v1, r1, add, 0);
    *v2 = aot_add_s8_elem(*v2, r2, add, 0);
}

#if AOT_CONV_PAIRS_ASM
/* Channels per chunk of a tile with a fused residual ADD (aot_conv_pairs_add_run): the convolution's outputs of a
 * chunk go to three rows of this many bytes on the stack, then through the ADD into the output. */
#define AOT_CONV_STAGE 16

/* n (even, at least 2) elements of one pixel row through the fused ADD whose range is all of int8: out[i] =
 * ADD(a[i], b[i]), a the operand rescaled in full, b the halved one (add_s8_elem.h), the parameters in registers (one
 * LDM of the first 8 words of struct aot_add_s8_fast): 15 instructions per element.  Element i is read before it is
 * stored, so out may be a or b (in place). */
AOT_CONV_NAKED static void aot_conv_add_row(const int8_t* a __attribute__((unused)),
                                            const int8_t* b __attribute__((unused)),
                                            int8_t* out __attribute__((unused)), int32_t n __attribute__((unused)),
                                            const struct aot_add_s8_fast* f __attribute__((unused)))
{
#define AOT_CONV_ADD1                                                                                                  \
    "ldrsb r12, [r0], #1\n\t"                                                                                          \
    "add r12, r4, r12, lsl #21\n\t"                                                                                    \
    "add lr, r6, r12, asr #31\n\t"                                                                                     \
    "smmlar r12, r12, r5, lr\n\t"                                                                                      \
    "asr r12, r12, r7\n\t"                                                                                             \
    "ldrsb lr, [r1], #1\n\t"                                                                                           \
    "add r12, r12, lr, lsl #19\n\t"                                                                                    \
    "add r12, r12, r8\n\t"                                                                                             \
    "add lr, r10, r12, asr #31\n\t"                                                                                    \
    "lsl r12, r12, #1\n\t"                                                                                             \
    "smmlar r12, r12, r9, lr\n\t"                                                                                      \
    "asr r12, r12, r11\n\t"                                                                                            \
    "ssat r12, #8, r12\n\t"                                                                                            \
    "strb r12, [r2], #1\n\t"
    __asm__ volatile("push {r4-r11, lr}\n\t"
                     "ldr r12, [sp, #36]\n\t"
                     "ldm r12, {r4-r11}\n\t"
                     "add r3, r2, r3\n\t"
                     "1:\n\t" AOT_CONV_ADD1 AOT_CONV_ADD1 "cmp r2, r3\n\t"
                     "bne 1b\n\t"
                     "pop {r4-r11, pc}\n\t");
#undef AOT_CONV_ADD1
}

/* The fused ADD of n staged channels (from channel c) of the tile's three pixels in C: the ADD ranges that clamp and
 * parameters without the halved input.  Per channel the three residual elements are read before the three outputs
 * are stored: a part tile repeats its last pixel (equal addresses) and, in place, a pixel's residual element is its
 * output element.  Out of line, so that its registers do not grow the frame of the common path. */
AOT_NOINLINE void aot_conv_add_stage_c(const int8_t (*stage)[AOT_CONV_STAGE], int32_t n,
                                       const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add, int32_t c)
{
    const int8_t* const r0 = tile->res[0] + c;
    const int8_t* const r1 = tile->res[1] + c;
    const int8_t* const r2 = tile->res[2] + c;
    int8_t* const o0 = tile->out[0] + c;
    int8_t* const o1 = tile->out[1] + c;
    int8_t* const o2 = tile->out[2] + c;
    int32_t i;
    for (i = 0; i < n; i++) {
        int32_t v0 = stage[0][i], v1 = stage[1][i], v2 = stage[2][i];
        const int32_t x0 = r0[i], x1 = r1[i], x2 = r2[i];
        if (!add->usable) {
            aot_conv_add3_generic(&v0, &v1, &v2, x0, x1, x2, add->p);
        } else {
            v0 = add->a_is_in2 ? aot_add_s8_fast1(x0, v0, add) : aot_add_s8_fast1(v0, x0, add);
            v1 = add->a_is_in2 ? aot_add_s8_fast1(x1, v1, add) : aot_add_s8_fast1(v1, x1, add);
            v2 = add->a_is_in2 ? aot_add_s8_fast1(x2, v2, add) : aot_add_s8_fast1(v2, x2, add);
        }
        o0[i] = (int8_t)v0;
        o1[i] = (int8_t)v1;
        o2[i] = (int8_t)v2;
    }
}

/* The fused ADD of n staged channels (from channel c): row by row in asm when the ADD's range is all of int8 (a part
 * tile's repeated last pixel is skipped: its values are already stored and, in place, its residual is now the
 * output), else aot_conv_add_stage_c. */
AOT_ALWAYS_INLINE void aot_conv_add_stage(const int8_t (*stage)[AOT_CONV_STAGE], int32_t n,
                                          const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add,
                                          int32_t c)
{
    int32_t s;
    if (add->usable && add->act_full) {
        for (s = 0; s < AOT_CONV_PX && (s == 0 || tile->out[s] != tile->out[s - 1]); s++) {
            const int8_t* const r = tile->res[s] + c;
            aot_conv_add_row(add->a_is_in2 ? r : stage[s], add->a_is_in2 ? stage[s] : r, tile->out[s] + c, n, add);
        }
    } else {
        aot_conv_add_stage_c(stage, n, tile, add, c);
    }
}

/* aot_conv_pairs_run with a fused residual ADD: aot_conv_pairs stores a chunk of channel pairs into the stage, then
 * the ADD takes it to the output; returns the channels done (out_c rounded down to even).  Out of line: its stage
 * and the ADD's registers would leave the C pair loop's MAC asm, in the same function, none. */
AOT_NOINLINE int32_t aot_conv_pairs_add_run(const uint32_t* pairs, int32_t quads, const uint32_t* filter,
                                            const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,
                                            const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add)
{
    int8_t stage[AOT_CONV_PX][AOT_CONV_STAGE];
    struct aot_conv_job job;
    const int32_t even = out_c & ~(int32_t)1;
    int32_t c, s;
    for (s = 0; s < AOT_CONV_PX; s++) {
        job.corr2[s] = (int32_t)((uint32_t)tile->corr[s] * 2u);
    }
    job.pairs = pairs;
    job.xend = pairs + AOT_CONV_QW * quads;
    job.quads = quads;
    for (c = 0; c < even; c += AOT_CONV_STAGE) {
        const int32_t n = even - c < AOT_CONV_STAGE ? even - c : AOT_CONV_STAGE;
        for (s = 0; s < AOT_CONV_PX; s++) {
            job.out[s] = stage[s];
        }
        job.out0_end = stage[0] + n;
        job.multiplier = rq->multiplier + c;
        job.add = rq->add + c;
        job.bias = bias + c;
        job.filter = filter + quads * c;
        aot_conv_pairs(&job);
        aot_conv_add_stage((const int8_t(*)[AOT_CONV_STAGE])stage, n, tile, add, c);
    }
    return even;
}
#endif

/* Channel c of the tile's three pixels through the fused ADD (v0, v1, v2: the convolution's values) and stored.  Every
 * residual element is read before any output is stored: a part tile repeats its last pixel (equal addresses) and, in
 * place, a pixel's residual element is its output element.  Out of line (the C pair loop's fused ADD: layers whose
 * K is not a multiple of 4 or whose convolution range clamps), so that the asm of both operand orders is in the
 * object once. */
AOT_NOINLINE void aot_conv_add3_store(int32_t v0, int32_t v1, int32_t v2, const struct aot_conv_tile* tile,
                                      const struct aot_add_s8_fast* add, int32_t c)
{
    int32_t r0 = tile->res[0][c], r1 = tile->res[1][c], r2 = tile->res[2][c];
    if (add->usable) {
        /* The input rescaled in full is the first operand of aot_add_s8_fast3. */
        if (add->a_is_in2) {
            aot_add_s8_fast3(&r0, &r1, &r2, v0, v1, v2, add);
            v0 = r0;
            v1 = r1;
            v2 = r2;
        } else {
            aot_add_s8_fast3(&v0, &v1, &v2, r0, r1, r2, add);
        }
    } else {
        aot_conv_add3_generic(&v0, &v1, &v2, r0, r1, r2, add->p);
    }
    tile->out[0][c] = (int8_t)v0;
    tile->out[1][c] = (int8_t)v1;
    tile->out[2][c] = (int8_t)v2;
}

/* Requantizes the accumulators acc0, acc1, acc2 of one channel c (multiplier m, add constant d) for the
 * tile's pixels and stores them; `full`, `fused` and `exact` are constants at each call site: with `full` the
 * activation range is all of int8 (one saturation clamps), with `fused` each value then goes through the residual
 * ADD (aot_conv_add3_store), with `exact` d is zp * 256 + shift for TFLite's full requantization. */
AOT_ALWAYS_INLINE void aot_conv_out(int32_t acc0, int32_t acc1, int32_t acc2, int32_t m, int32_t d,
                                    const struct aot_conv_tile* tile, const struct aot_dsp_rq* rq, int full, int fused,
                                    int exact, const struct aot_add_s8_fast* add, int32_t c)
{
    const int32_t rs = exact ? 0 : aot_dsp_shift(d);
    int32_t v0 = exact ? aot_dsp_requant_exact(acc0, m, d) : aot_dsp_requant(acc0, m, d, rs);
    int32_t v1 = exact ? aot_dsp_requant_exact(acc1, m, d) : aot_dsp_requant(acc1, m, d, rs);
    int32_t v2 = exact ? aot_dsp_requant_exact(acc2, m, d) : aot_dsp_requant(acc2, m, d, rs);
    if (full) {
        v0 = aot_dsp_sat8(v0);
        v1 = aot_dsp_sat8(v1);
        v2 = aot_dsp_sat8(v2);
    } else {
        v0 = aot_dsp_clamp(v0, rq->act_min, rq->act_max);
        v1 = aot_dsp_clamp(v1, rq->act_min, rq->act_max);
        v2 = aot_dsp_clamp(v2, rq->act_min, rq->act_max);
    }
    if (fused) {
        aot_conv_add3_store(v0, v1, v2, tile, add, c);
    } else {
        tile->out[0][c] = (int8_t)v0;
        tile->out[1][c] = (int8_t)v1;
        tile->out[2][c] = (int8_t)v2;
    }
}

/* The K % 4 leftover taps of one channel for the tile's pixels (sums a0, a1, a2).  The channel's `tail`
 * plain weights end at wend; the word ending there (the bytes before it belong to the quads or the previous channel)
 * shifted down leaves them in its low bytes and zeros above, so one (x0, x2) (x1, x3) pair of each pixel
 * (aot_conv_im2col) covers them. */
AOT_HOT_INLINE void aot_conv_tail(const uint32_t* xt, int32_t tail, const int8_t* wend, int32_t* a0, int32_t* a1,
                                  int32_t* a2)
{
    const uint32_t w = aot_read32(wend - 4) >> (8 * (4 - tail));
    const uint32_t we = aot_sxtb16(w);
    const uint32_t wo = aot_sxtb16_ror8(w);
    *a0 = aot_smlad(wo, xt[1], aot_smlad(we, xt[0], *a0));
    *a1 = aot_smlad(wo, xt[3], aot_smlad(we, xt[2], *a1));
    *a2 = aot_smlad(wo, xt[5], aot_smlad(we, xt[4], *a2));
}

/* The tile's accumulators for channels c and c + 1 preset to bias - corr: a[2 p + j] for pixel p, channel c + j. */
AOT_HOT_INLINE void aot_conv_preset(int32_t* a, const int32_t* bias, const struct aot_conv_tile* tile)
{
    const int32_t b0 = bias[0], b1 = bias[1];
    const int32_t k0 = tile->corr[0], k1 = tile->corr[1], k2 = tile->corr[2];
    a[0] = b0 - k0;
    a[1] = b1 - k0;
    a[2] = b0 - k1;
    a[3] = b1 - k1;
    a[4] = b0 - k2;
    a[5] = b1 - k2;
}

/* The tile buffer against every output channel, two channels at a time (aot_conv_mac_3x2); `kq` is the literal quad
 * count of the unrolled small layers (then out_c is even, see dsp_gemm_entry) or -1.  `full`, `fused`, `exact` and
 * `kq` are constants in each instance (aot_conv_gemm_*). */
AOT_ALWAYS_INLINE void aot_conv_gemm3(const uint32_t* pairs, int32_t quads, int32_t tail, const uint32_t* filter,
                                      const int8_t* wtail, const int32_t* bias, int32_t out_c,
                                      const struct aot_dsp_rq* rq, const struct aot_conv_tile* tile,
                                      const struct aot_add_s8_fast* add, int full, int fused, int exact, int32_t kq)
{
    const uint32_t* const xend = pairs + AOT_CONV_QW * quads;
    const uint32_t* wp = filter;
    const int32_t* mp = rq->multiplier;
    const int32_t* dp = rq->add;
    int32_t c = 0;
#if AOT_CONV_PAIRS_ASM
    if (full && !exact && kq < 0 && tail == 0 && out_c >= 2) {
        c = fused ? aot_conv_pairs_add_run(pairs, quads, filter, bias, out_c, rq, tile, add)
                  : aot_conv_pairs_run(pairs, quads, filter, bias, out_c, rq, tile);
        wp += quads * c;
    }
#endif
    for (; c + 1 < out_c; c += 2) {
        int32_t a[2 * AOT_CONV_PX];
        aot_conv_preset(a, bias + c, tile);
        aot_conv_mac_3x2(&wp, pairs, quads, kq, a);
        if (tail) {
            aot_conv_tail(xend, tail, wtail + (c + 1) * tail, &a[0], &a[2], &a[4]);
            aot_conv_tail(xend, tail, wtail + (c + 2) * tail, &a[1], &a[3], &a[5]);
        }
        /* Keeps GCC 12 from hoisting the requantization constants above the multiplies, where they only spill. */
        __asm__ volatile("" ::: "memory");
        aot_conv_out(a[0], a[2], a[4], mp[c], dp[c], tile, rq, full, fused, exact, add, c);
        aot_conv_out(a[1], a[3], a[5], mp[c + 1], dp[c + 1], tile, rq, full, fused, exact, add, c + 1);
    }
    if (kq < 0 && c < out_c) {
        /* An odd last channel: its Q words follow the pairs' (one word per quad). */
        const uint32_t* xp = pairs;
        int32_t a0 = bias[c] - tile->corr[0], a1 = bias[c] - tile->corr[1], a2 = bias[c] - tile->corr[2];
        while (xp != xend) {
            const uint32_t w = *wp++;
            const uint32_t e = aot_sxtb16_ror8(w);
            a0 = aot_smlad(e, xp[1], aot_smlad(w, xp[0], a0));
            a1 = aot_smlad(e, xp[3], aot_smlad(w, xp[2], a1));
            a2 = aot_smlad(e, xp[5], aot_smlad(w, xp[4], a2));
            xp += AOT_CONV_QW;
        }
        if (tail) {
            aot_conv_tail(xend, tail, wtail + (c + 1) * tail, &a0, &a1, &a2);
        }
        aot_conv_out(a0, a1, a2, mp[c], dp[c], tile, rq, full, fused, exact, add, c);
    }
}

/* The GEMM of one tile (the instances below). */
typedef void (*aot_conv_gemm_fn)(const uint32_t* pairs, int32_t quads, int32_t tail, const uint32_t* filter,
                                 const int8_t* wtail, const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,
                                 const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add);

/* The instances: whether the activation range is all of int8, the fused ADD, the full requantization and, for layers
 * with a few quads (K = 8, 16 or 24: MobileNet's expansion layers; K = 9 or 27: 3x3 first layers on one or three input
 * channels, the full int8 range, no fused ADD), the literal quad count and tail are decided once per layer, not per
 * output. */
#define AOT_CONV_GEMM(name, full, fused, exact, kq, ktail)                                                             \
    static void name(const uint32_t* pairs, int32_t quads, int32_t tail, const uint32_t* filter, const int8_t* wtail,  \
                     const int32_t* bias, int32_t out_c, const struct aot_dsp_rq* rq,                                  \
                     const struct aot_conv_tile* tile, const struct aot_add_s8_fast* add)                              \
    {                                                                                                                  \
        aot_conv_gemm3(pairs, (kq) > 0 ? (kq) : quads, (kq) > 0 ? (ktail) : tail, filter, wtail, bias, out_c, rq,      \
                       tile, add, (full), (fused), (exact), (kq));                                                     \
    }

/* The whole layer: im2col of each tile of AOT_CONV_PX pixels, then `gemm`, chosen by the entry point (with a fused
 * residual ADD, residual and residual_add are set).  Inlined into each entry point with `gemm` a constant, so every
 * call is direct: the image report's static stack bound covers it (no indirect calls), and an entry point links only
 * its own GEMM instance. */
AOT_ALWAYS_INLINE void aot_conv2d_s8_dsp_run(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                             int32_t in_c, const int32_t* filter, int32_t filter_h, int32_t filter_w,
                                             const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,
                                             int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                                             int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                             int32_t input_zero_point, const int32_t* out_multiplier,
                                             const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch,
                                             const int8_t* residual, const struct aot_add_s8_params* residual_add,
                                             aot_conv_gemm_fn gemm)
{
    const int fused = residual != (const int8_t*)0;
    const int32_t k = filter_h * filter_w * in_c;
    const int32_t quads = k / 4;
    const int32_t tail = k % 4;
    const int32_t pixels = batches * out_h * out_w;
    uint32_t* const pairs = (uint32_t*)scratch;
    int8_t* const gather =
        (in_c % 4 == 0) ? (int8_t*)0 : (int8_t*)(pairs + AOT_CONV_QW * quads + (tail ? AOT_CONV_QW : 0));
    const int8_t* const wtail = (const int8_t*)filter + 4 * quads * out_c;
    struct aot_conv_geom g;
    struct aot_dsp_rq rq;
    struct aot_add_s8_fast add;
    const struct aot_add_s8_fast* addp = (const struct aot_add_s8_fast*)0;
    struct aot_conv_tile tile;
    const int pointwise = filter_h == 1 && filter_w == 1 && stride_h == 1 && stride_w == 1 && pad_top == 0 &&
                          pad_left == 0 && in_c % 4 == 0 && in_h == out_h && in_w == out_w;
    int32_t p, s;

    g.input = input;
    g.in_h = in_h;
    g.in_w = in_w;
    g.in_c = in_c;
    g.filter_h = filter_h;
    g.filter_w = filter_w;
    g.stride_h = stride_h;
    g.stride_w = stride_w;
    g.dilation_h = dilation_h;
    g.dilation_w = dilation_w;
    g.pad_top = pad_top;
    g.pad_left = pad_left;
    g.zero_point = input_zero_point;
    g.out_h = out_h;
    g.out_w = out_w;
    rq.multiplier = out_multiplier;
    rq.add = out_add;
    rq.act_min = act_min;
    rq.act_max = act_max;
    rq.full = act_min <= -128 && act_max >= 127;
    if (fused) {
        aot_add_s8_fast_init(&add, residual_add); /* a local copy: the int8 stores cannot alias it */
        addp = &add;
    }

    for (p = 0; p < pixels; p += AOT_CONV_PX) {
        for (s = 0; s < AOT_CONV_PX; s++) {
            /* A part last tile repeats its last pixel; every copy stores the same values. */
            const int32_t q = p + s < pixels ? p + s : pixels - 1;
            int32_t corr = 0;
            if (pointwise) {
                /* A 1x1 stride-1 unpadded layer: pixel q's K inputs are the input's bytes at q * in_c. */
                aot_conv_expand(input + q * in_c, quads, pairs + 2 * s, &corr);
                corr *= 128;
            } else {
                corr = aot_conv_im2col(&g, q, pairs, s, gather);
            }
            tile.corr[s] = corr;
            tile.out[s] = output + q * out_c;
            tile.res[s] = fused ? residual + q * out_c : (const int8_t*)0;
        }
        gemm(pairs, quads, tail, (const uint32_t*)filter, wtail, bias, out_c, &rq, &tile, addp);
    }
}

/* The entry points (conv2d.h), one per GEMM instance, so a firmware links only the instances its layers use. */
#define AOT_CONV_DSP_ENTRY(name, gemm)                                                                                 \
    void name(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const int32_t* filter,   \
              int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,   \
              int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,               \
              int32_t pad_top, int32_t pad_left, int32_t input_zero_point, const int32_t* out_multiplier,              \
              const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch)                              \
    {                                                                                                                  \
        aot_conv2d_s8_dsp_run(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h,       \
                              out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left,             \
                              input_zero_point, out_multiplier, out_add, act_min, act_max, scratch, (const int8_t*)0,  \
                              (const struct aot_add_s8_params*)0, (gemm));                                             \
    }

/* An entry point that runs another's: the K-unrolled entry points call aot_conv2d_s8_dsp_sat, whose GEMM takes every
 * K (the channel-pairs asm for K = 8, 16, 24; the loop with the tail for 9 and 27), so that an image links one GEMM
 * instance, not one per K (MobileNet v2: 3.8 KB): K = 8, 16, 24 wherever the pairs asm exists (faster too), K = 9
 * and 27 at -Os (GCC's __OPTIMIZE_SIZE__; slower). */
#define AOT_CONV_DSP_FORWARD(name, target)                                                                             \
    void name(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const int32_t* filter,   \
              int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w,   \
              int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,               \
              int32_t pad_top, int32_t pad_left, int32_t input_zero_point, const int32_t* out_multiplier,              \
              const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch)                              \
    {                                                                                                                  \
        target(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h, out_w, out_c,        \
               stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_zero_point, out_multiplier,        \
               out_add, act_min, act_max, scratch);                                                                    \
    }

#endif /* AOT_KERNELS_CONV2D_S8_DSP_BODY_H_ */
