/* int8 average pooling for cores with Helium (MVE), with a portable fallback: aot_avg_pool_s8's arithmetic (the
 * int32 sum of the in-image taps divided rounding half away from zero, then clamped).
 *
 * The window sums go 16 channels at a time into four int32 vectors (VLDRB.S32 widening loads, the channels past
 * the last one predicated off with VCTP), so each tap costs two instructions per four channels instead of a scalar
 * load and add per channel; whole groups of 16 channels of windows of at most 256 taps (a global pool over 25x5)
 * go into two int16 vectors instead, two instructions per eight channels.  The division keeps TFLite's exact integer
 * form per channel (SDIV); it runs once per output element, against filter_h * filter_w taps of summing.
 */
#include "aot_sched.h"

#include "aot/errors.h"
#include "aot/kernels/pooling.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>
#endif

/* TFLite's rounding division of the window sum and the activation clamp. */
static inline int8_t aot_avg_pool_mve_out(int32_t acc, int32_t count, int32_t act_min, int32_t act_max)
{
    acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
    acc = acc < act_min ? act_min : acc;
    acc = acc > act_max ? act_max : acc;
    return (int8_t)acc;
}

int32_t aot_avg_pool_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                            int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                            int32_t act_max)
{
    int32_t b, oy, ox, c, fy, fx;
    for (b = 0; b < batches; b++) {
        for (oy = 0; oy < out_h; oy++) {
            const int32_t y0 = oy * stride_h - pad_top;
            const int32_t fy_start = y0 < 0 ? -y0 : 0;
            const int32_t fy_end = filter_h < in_h - y0 ? filter_h : in_h - y0;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t x0 = ox * stride_w - pad_left;
                const int32_t fx_start = x0 < 0 ? -x0 : 0;
                const int32_t fx_end = filter_w < in_w - x0 ? filter_w : in_w - x0;
                const int32_t count = (fy_end - fy_start) * (fx_end - fx_start);
                const int8_t* corner;
                int8_t* out = output + ((b * out_h + oy) * out_w + ox) * channels;
                if (fy_end <= fy_start || fx_end <= fx_start) {
                    return AOT_ERR_KERNEL;
                }
                corner = input + ((b * in_h + y0 + fy_start) * in_w + x0 + fx_start) * channels;
#if defined(__ARM_FEATURE_MVE)
                c = 0;
                if (count <= 256) {
                    /* Whole groups of 16 channels summed in int16 lanes (two VLDRB.S16 and two VADD per tap, no
                     * predicates): a sum of at most 256 int8 values lies in [-32768, 32512]. */
                    const int32_t row_skip = (in_w - (fx_end - fx_start)) * channels;
                    for (; c + 16 <= channels; c += 16) {
                        const int8_t* q = corner + c;
                        int16x8_t h0 = vdupq_n_s16(0), h1 = h0;
                        int16_t sums[16];
                        int32_t i;
                        for (fy = fy_start; fy < fy_end; fy++) {
                            for (fx = fx_start; fx < fx_end; fx++) {
                                h0 = vaddq_s16(h0, vldrbq_s16(q));
                                h1 = vaddq_s16(h1, vldrbq_s16(q + 8));
                                q += channels;
                            }
                            q += row_skip;
                        }
                        vst1q_s16(sums, h0);
                        vst1q_s16(sums + 8, h1);
                        for (i = 0; i < 16; i++) {
                            out[c + i] = aot_avg_pool_mve_out(sums[i], count, act_min, act_max);
                        }
                    }
                }
                for (; c < channels; c += 16) {
                    /* The window's rows are in_w pixels apart; after a row of taps, skip to the next one. */
                    const int32_t row_skip = (in_w - (fx_end - fx_start)) * channels;
                    const int32_t left = channels - c;
                    const mve_pred16_t p0 = vctp32q((uint32_t)left);
                    const mve_pred16_t p1 = vctp32q((uint32_t)(left > 4 ? left - 4 : 0));
                    const mve_pred16_t p2 = vctp32q((uint32_t)(left > 8 ? left - 8 : 0));
                    const mve_pred16_t p3 = vctp32q((uint32_t)(left > 12 ? left - 12 : 0));
                    const int8_t* q = corner + c;
                    int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
                    int32_t sums[16], i, n = left < 16 ? left : 16;
                    for (fy = fy_start; fy < fy_end; fy++) {
                        for (fx = fx_start; fx < fx_end; fx++) {
                            s0 = vaddq_s32(s0, vldrbq_z_s32(q, p0));
                            s1 = vaddq_s32(s1, vldrbq_z_s32(q + 4, p1));
                            s2 = vaddq_s32(s2, vldrbq_z_s32(q + 8, p2));
                            s3 = vaddq_s32(s3, vldrbq_z_s32(q + 12, p3));
                            q += channels;
                        }
                        q += row_skip;
                    }
                    vst1q_s32(sums, s0);
                    vst1q_s32(sums + 4, s1);
                    vst1q_s32(sums + 8, s2);
                    vst1q_s32(sums + 12, s3);
                    for (i = 0; i < n; i++) {
                        out[c + i] = aot_avg_pool_mve_out(sums[i], count, act_min, act_max);
                    }
                }
#else
                for (c = 0; c < channels; c++) {
                    const int8_t* q = corner + c;
                    int32_t acc = 0;
                    for (fy = fy_start; fy < fy_end; fy++) {
                        for (fx = fx_start; fx < fx_end; fx++) {
                            acc += q[((fy - fy_start) * in_w + fx - fx_start) * channels];
                        }
                    }
                    out[c] = aot_avg_pool_mve_out(acc, count, act_min, act_max);
                }
#endif
            }
        }
    }
    return AOT_OK;
}
