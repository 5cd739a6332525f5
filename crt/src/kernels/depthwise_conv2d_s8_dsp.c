/* int8 3x3 depthwise convolution (depth multiplier 1, no dilation, any stride) for cores with the DSP
 * extension, with a portable fallback.
 *
 * NHWC puts neighbouring taps of one channel `channels` bytes apart, which no dual-MAC instruction can use.
 * So the kernel works one channel at a time: it copies the channel into an int16 plane in scratch (border
 * cells hold the input zero point, whose product with the weights the compiler folded into `bias`), then
 * every filter row is one SMLAD on the two adjacent int16 taps (a single unaligned word load) plus one
 * multiply for the third tap.  Per-channel weights and requantization parameters stay in registers for
 * the whole plane.  Weights keep the model's [1, 3, 3, channels] layout.
 * Scratch: out_h * out_w * 4 + Hp * Wp * 2 bytes, Hp = (out_h - 1) * stride_h + 3, Wp = (out_w - 1) *
 * stride_w + 3 (one channel's accumulators, then its plane).
 * Requires: right shifts >= 1 and |acc| < 2^30 (checked by the compiler).
 */
#include "aot/kernels/depthwise_conv2d.h"
#include "dsp_s8.h"

static uint32_t aot_dw_pair(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}

/* The 3x3 window whose rows start at r0, r1, r2: per row one SMLAD on the first two taps read as
 * one word, and (third tap, 0) x (w2, 0) for the last. */
static inline int32_t aot_dw_window(const int16_t* r0, const int16_t* r1, const int16_t* r2,
                                    const uint32_t* w01, const uint32_t* w2, int32_t acc)
{
    acc = aot_smlad(aot_read32((const int8_t*)r0), w01[0], acc);
    acc = aot_smlabb((uint32_t)(int32_t)r0[2], w2[0], acc);
    acc = aot_smlad(aot_read32((const int8_t*)r1), w01[1], acc);
    acc = aot_smlabb((uint32_t)(int32_t)r1[2], w2[1], acc);
    acc = aot_smlad(aot_read32((const int8_t*)r2), w01[2], acc);
    acc = aot_smlabb((uint32_t)(int32_t)r2[2], w2[2], acc);
    return acc;
}

void aot_depthwise_conv2d_s8_dsp(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                                 int32_t channels, const int8_t* filter, const int32_t* bias, int8_t* output,
                                 int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                 int32_t pad_top, int32_t pad_left, int32_t input_zero_point,
                                 int32_t output_offset, const int32_t* out_multiplier,
                                 const int32_t* out_right_shift, int32_t act_min, int32_t act_max,
                                 int32_t* scratch)
{
    const int32_t hp = (out_h - 1) * stride_h + 3;
    const int32_t wp = (out_w - 1) * stride_w + 3;
    /* Input rows/columns the plane holds (the others are never read by any output). */
    const int32_t y_end = in_h < hp - pad_top ? in_h : hp - pad_top;
    const int32_t x_end = in_w < wp - pad_left ? in_w : wp - pad_left;
    int32_t* const accs = scratch;
    int16_t* const plane = (int16_t*)(scratch + out_h * out_w);
    int32_t b, c, i, y, x;

    for (i = 0; i < hp * wp; i++) {
        plane[i] = (int16_t)input_zero_point;
    }
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * channels;
        int8_t* out_b = output + b * out_h * out_w * channels;
        for (c = 0; c < channels; c++) {
            const int8_t* f = filter + c;
            uint32_t w01[3], w2[3];
            const int32_t m = out_multiplier[c], rs = out_right_shift[c], bc = bias[c];
            int8_t* out = out_b + c;
            for (i = 0; i < 3; i++) {
                w01[i] = aot_dw_pair(f[3 * i * channels], f[(3 * i + 1) * channels]);
                w2[i] = (uint32_t)(int32_t)f[(3 * i + 2) * channels];
            }

            for (y = 0; y < y_end; y++) {
                const int8_t* src = in_b + y * in_w * channels + c;
                int16_t* dst = plane + (y + pad_top) * wp + pad_left;
                for (x = 0; x < x_end; x++) {
                    dst[x] = src[x * channels];
                }
            }
            /* Accumulate the whole channel first, then requantize it: each loop then keeps its constants
             * (weights, or multiplier/shift/clamp) in registers. */
            for (y = 0; y < out_h; y++) {
                const int16_t* r0 = plane + y * stride_h * wp;
                const int16_t* r1 = r0 + wp;
                const int16_t* r2 = r1 + wp;
                int32_t* a = accs + y * out_w;
                int32_t* const a_end = a + out_w;
                while (a != a_end) {
                    *a++ = aot_dw_window(r0, r1, r2, w01, w2, bc);
                    r0 += stride_w;
                    r1 += stride_w;
                    r2 += stride_w;
                }
            }
            for (i = 0; i < out_h * out_w; i++) {
                *out = aot_dsp_output(accs[i], m, rs, output_offset, act_min, act_max);
                out += channels;
            }
        }
    }
}
