/* int8 3x3 depthwise convolution (depth multiplier 1, no dilation, any stride) for cores with the DSP
 * extension, with a portable fallback.
 *
 * NHWC puts neighbouring taps of one channel `channels` bytes apart, which no dual-MAC instruction can use.
 * So the kernel works one channel at a time: it copies the channel into an int16 plane in scratch (border
 * cells hold the input zero point, whose product with the weights the compiler folded into `bias`), where
 * neighbouring taps are neighbouring int16 lanes.  Two outputs of a plane row are computed together from
 * aligned word pairs: with stride 1, per filter row, taps p0..p3 as (p0, p1) and (p2, p3) and weights as
 * (w0, w1) and (w1, w2) give
 *     out0 = w0 p0 + w1 p1 + w2 p2 = SMLAD((p0,p1), (w0,w1)) + SMLABT((p2,p3), (w1,w2))
 *     out1 = w0 p1 + w1 p2 + w2 p3 = SMLATB((p0,p1), (w0,w1)) + SMLAD((p2,p3), (w1,w2)),
 * six multiply-accumulates for two loads; with stride 2, taps p0..p4 give out0 from (p0,p1), (p2,p3) and out1
 * from (p2,p3), (p4,p5).  Other strides take one output at a time.  Each plane row is accumulated into
 * scratch first, then requantized: each loop keeps its constants in registers.
 *
 * "Rows" and "columns" are the plane's: the compiler passes the image either as it is or transposed (its
 * row and column steps swapped, the 3x3 filter transposed to match) so that plane rows are the longer
 * side, which is what the two-output loops are good at (e.g. KWS: 25x5 images become 5 rows of 25).
 * Weights: [3][3][channels] in plane orientation (the model's [1, 3, 3, channels], maybe transposed).
 * Requantization: per channel a multiplier and an add constant (output offset and rounding, dsp_s8.h).
 * Scratch: 4 * out_cols rounded up to 8, then Hp * Wp * 2 bytes, Hp = (out_rows - 1) * stride_r + 3, Wp =
 * (out_cols - 1) * stride_c + 3 rounded up to even (one plane row's accumulators, then the plane).
 * Requires: right shifts 1..22 and |acc| < 2^30 (checked by the compiler).
 */
#include "aot/kernels/depthwise_conv2d.h"
#include "dsp_s8.h"

static uint32_t aot_dw_pair(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}

#if defined(__ARM_FEATURE_DSP)
static inline int32_t aot_smlabt(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlabt((int32_t)a, (int32_t)b, acc);
}

static inline int32_t aot_smlatb(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlatb((int32_t)a, (int32_t)b, acc);
}

/* Two words at p, then p advances by `step` bytes (one LDRD with post-increment). */
#define AOT_DW_LOAD2(p, a, b, step) \
    __asm__("ldrd %0, %1, [%2], #" #step : "=r"(a), "=r"(b), "+r"(p) : "m"(*(const uint32_t(*)[2])(p)))
#else
static inline int32_t aot_smlabt(uint32_t a, uint32_t b, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)((int32_t)(int16_t)(a & 0xFFFFu) * (int32_t)(int16_t)(b >> 16)));
}

static inline int32_t aot_smlatb(uint32_t a, uint32_t b, int32_t acc)
{
    return aot_smlabt(b, a, acc);
}

#define AOT_DW_LOAD2(p, a, b, step)                              \
    do {                                                          \
        (a) = aot_read32((const int8_t*)(p));                     \
        (b) = aot_read32((const int8_t*)(p) + 4);                 \
        (p) = (const int16_t*)((const int8_t*)(p) + (step));      \
    } while (0)
#endif

/* One output whose window rows start at r0, r1, r2 (any stride): per row one SMLAD on the first two taps
 * read as one word, and (third tap, 0) x (w2, 0) for the last. */
static int32_t aot_dw_window(const int16_t* r0, int32_t wp, const uint32_t* w01, const uint32_t* w12,
                             int32_t acc)
{
    int32_t ky;
    for (ky = 0; ky < 3; ky++) {
        acc = aot_smlad(aot_read32((const int8_t*)r0), w01[ky], acc);
        acc = aot_smlabt((uint32_t)(int32_t)r0[2], w12[ky], acc);
        r0 += wp;
    }
    return acc;
}

/* One plane row of outputs, stride 1: pairs of outputs from aligned word pairs (r0 is word aligned). */
static void aot_dw_row_s1(const int16_t* r0, int32_t wp, int32_t n, const uint32_t* w01, const uint32_t* w12,
                          int32_t bias, int32_t* acc)
{
    const int16_t* r1 = r0 + wp;
    const int16_t* r2 = r1 + wp;
    const uint32_t a0 = w01[0], a1 = w01[1], a2 = w01[2], b0 = w12[0], b1 = w12[1], b2 = w12[2];
    int32_t* const pair_end = acc + (n & ~1);
    while (acc != pair_end) {
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
    if (n & 1) {
        *acc = aot_dw_window(r0, wp, w01, w12, bias);
    }
}

/* One plane row of outputs, stride 2: out0 from taps (p0,p1) (p2,p3), out1 from (p2,p3) (p4,p5). */
static void aot_dw_row_s2(const int16_t* r0, int32_t wp, int32_t n, const uint32_t* w01, const uint32_t* w12,
                          int32_t bias, int32_t* acc)
{
    const int16_t* r1 = r0 + wp;
    const int16_t* r2 = r1 + wp;
    const uint32_t a0 = w01[0], a1 = w01[1], a2 = w01[2], b0 = w12[0], b1 = w12[1], b2 = w12[2];
    int32_t* const pair_end = acc + (n & ~1);
    while (acc != pair_end) {
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
    if (n & 1) {
        *acc = aot_dw_window(r0, wp, w01, w12, bias);
    }
}

/* Requantizes one plane row of accumulators into the output (outputs `step` bytes apart). */
static void aot_dw_requant(const int32_t* acc, int32_t n, int8_t* o, int32_t step, int32_t m, int32_t add,
                           int32_t act_min, int32_t act_max)
{
    const int32_t rs = aot_dsp_shift(add);
    const int32_t* const end = acc + n;
    if (act_min <= -128 && act_max >= 127) {
        if (n & 1) {
            *o = (int8_t)aot_dsp_sat8(aot_dsp_requant(*acc++, m, add, rs));
            o += step;
        }
        while (acc != end) {
            const int32_t v0 = aot_dsp_sat8(aot_dsp_requant(acc[0], m, add, rs));
            const int32_t v1 = aot_dsp_sat8(aot_dsp_requant(acc[1], m, add, rs));
            o[0] = (int8_t)v0;
            o[step] = (int8_t)v1;
            o += 2 * step;
            acc += 2;
        }
    } else {
        while (acc != end) {
            *o = (int8_t)aot_dsp_clamp(aot_dsp_requant(*acc++, m, add, rs), act_min, act_max);
            o += step;
        }
    }
}

/* Copies one channel of the input (`col_step` bytes between columns) into the plane's int16 cells. */
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

void aot_depthwise_conv2d_s8_dsp(const int8_t* input, int32_t batches, int32_t channels, int32_t in_rows,
                                 int32_t in_cols, int32_t in_row_step, int32_t in_col_step,
                                 const int8_t* filter, const int32_t* bias, int8_t* output, int32_t out_rows,
                                 int32_t out_cols, int32_t out_row_step, int32_t out_col_step,
                                 int32_t stride_r, int32_t stride_c, int32_t pad_r, int32_t pad_c,
                                 int32_t input_zero_point, const int32_t* out_multiplier,
                                 const int32_t* out_add, int32_t act_min, int32_t act_max, int32_t* scratch)
{
    const int32_t hp = (out_rows - 1) * stride_r + 3;
    const int32_t wp = ((out_cols - 1) * stride_c + 3 + 1) & ~1;
    /* Input rows/columns the plane holds (the others are never read by any output; none when an explicit
     * padding is wider than what the windows cover). */
    const int32_t r_end = in_rows < hp - pad_r ? in_rows : (hp - pad_r > 0 ? hp - pad_r : 0);
    const int32_t c_end = in_cols < wp - pad_c ? in_cols : (wp - pad_c > 0 ? wp - pad_c : 0);
    const int32_t image = in_rows * in_cols * channels;
    int32_t* const accs = scratch;
    int16_t* const plane = (int16_t*)(scratch + ((out_cols + 1) & ~1));
    int32_t b, c, i, y, x;

    for (i = 0; i < hp * wp; i++) {
        plane[i] = (int16_t)input_zero_point;
    }
    for (b = 0; b < batches; b++) {
        for (c = 0; c < channels; c++) {
            const int8_t* f = filter + c;
            const int8_t* src = input + b * image + c;
            const int32_t bc = bias[c], m = out_multiplier[c], add = out_add[c];
            int8_t* out = output + c;
            uint32_t w01[3], w12[3];
            for (i = 0; i < 3; i++) {
                w01[i] = aot_dw_pair(f[3 * i * channels], f[(3 * i + 1) * channels]);
                w12[i] = aot_dw_pair(f[(3 * i + 1) * channels], f[(3 * i + 2) * channels]);
            }
            for (y = 0; y < r_end; y++) {
                aot_dw_copy_row(src + y * in_row_step, in_col_step, plane + (y + pad_r) * wp + pad_c, c_end);
            }
            /* One plane row at a time: accumulate it (weights in registers), then requantize it. */
            for (y = 0; y < out_rows; y++) {
                const int16_t* r0 = plane + y * stride_r * wp;
                if (stride_c == 1) {
                    aot_dw_row_s1(r0, wp, out_cols, w01, w12, bc, accs);
                } else if (stride_c == 2) {
                    aot_dw_row_s2(r0, wp, out_cols, w01, w12, bc, accs);
                } else {
                    for (x = 0; x < out_cols; x++) {
                        accs[x] = aot_dw_window(r0 + x * stride_c, wp, w01, w12, bc);
                    }
                }
                aot_dw_requant(accs, out_cols, out + y * out_row_step, out_col_step, m, add, act_min, act_max);
            }
        }
        output += out_rows * out_cols * channels;
    }
}
