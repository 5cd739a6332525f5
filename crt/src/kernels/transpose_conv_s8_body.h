/* Private: the gather walk of the fast int8 TRANSPOSE_CONV kernels (aot/kernels/transpose_conv.h) around a dot
 * product of one tap's in_c input values with four (or one) output channels' weights, which each kernel file
 * defines.  Per output pixel, four output channels at a time: bias, then per tap reaching the pixel the dot of
 * the stored int8 values plus tap_bias (the input offset times the tap's weight sum), all wrapping like TFLite's
 * int32 accumulator; then TFLite's requantization. */
#ifndef AOT_KERNELS_TRANSPOSE_CONV_S8_BODY_H_
#define AOT_KERNELS_TRANSPOSE_CONV_S8_BODY_H_

#include <stdint.h>

#include "aot/requant.h"
#include "transpose_conv_taps.h"

/* acc[j] += sum over c < n of in[c] * f[j * f_stride + c], j < 4 */
typedef void (*aot_tconv_dot4_fn)(const int8_t* in, const int8_t* f, int32_t f_stride, int32_t n, uint32_t* acc);
/* sum over c < n of in[c] * f[c] */
typedef int32_t (*aot_tconv_dot1_fn)(const int8_t* in, const int8_t* f, int32_t n);

static inline int8_t aot_tconv_requant(uint32_t acc, int32_t mult, int32_t shift, int32_t out_off, int32_t act_min,
                                       int32_t act_max)
{
    int32_t v = aot_multiply_by_quantized_multiplier((int32_t)acc, mult, shift) + out_off;
    v = v < act_min ? act_min : v;
    return (int8_t)(v > act_max ? act_max : v);
}

static inline void aot_tconv_s8_walk(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                     const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                     int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                     int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t output_offset,
                                     const int32_t* mult, const int32_t* shift, int32_t act_min, int32_t act_max,
                                     const int32_t* tap_bias, aot_tconv_dot4_fn dot4, aot_tconv_dot1_fn dot1)
{
    const int32_t taps = filter_h * filter_w, oc_stride = taps * in_c;
    int32_t b, oy, ox, oc, iy, ix, fy, fx, j;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t iy0 = aot_tconv_first(oy, pad_top, stride_h, in_h);
            for (ox = 0; ox < out_w; ox++) {
                const int32_t ix0 = aot_tconv_first(ox, pad_left, stride_w, in_w);
                for (oc = 0; oc + 4 <= out_c; oc += 4) {
                    uint32_t acc[4];
                    for (j = 0; j < 4; j++) {
                        acc[j] = bias != 0 ? (uint32_t)bias[oc + j] : 0u;
                    }
                    for (iy = iy0; iy >= 0 && (fy = oy + pad_top - iy * stride_h) < filter_h; iy--) {
                        for (ix = ix0; ix >= 0 && (fx = ox + pad_left - ix * stride_w) < filter_w; ix--) {
                            const int32_t tap = fy * filter_w + fx;
                            const int32_t* tb = tap_bias + oc * taps + tap;
                            dot4(in_b + (iy * in_w + ix) * in_c, filter + oc * oc_stride + tap * in_c, oc_stride, in_c,
                                 acc);
                            acc[0] += (uint32_t)tb[0];
                            acc[1] += (uint32_t)tb[taps];
                            acc[2] += (uint32_t)tb[2 * taps];
                            acc[3] += (uint32_t)tb[3 * taps];
                        }
                    }
                    for (j = 0; j < 4; j++) {
                        output[oc + j] = aot_tconv_requant(acc[j], mult[oc + j], shift[oc + j], output_offset,
                                                           act_min, act_max);
                    }
                }
                for (; oc < out_c; oc++) {
                    uint32_t acc = bias != 0 ? (uint32_t)bias[oc] : 0u;
                    for (iy = iy0; iy >= 0 && (fy = oy + pad_top - iy * stride_h) < filter_h; iy--) {
                        for (ix = ix0; ix >= 0 && (fx = ox + pad_left - ix * stride_w) < filter_w; ix--) {
                            const int32_t tap = fy * filter_w + fx;
                            acc += (uint32_t)dot1(in_b + (iy * in_w + ix) * in_c, filter + oc * oc_stride + tap * in_c,
                                                  in_c);
                            acc += (uint32_t)tap_bias[oc * taps + tap];
                        }
                    }
                    output[oc] = aot_tconv_requant(acc, mult[oc], shift[oc], output_offset, act_min, act_max);
                }
                output += out_c;
            }
        }
    }
}

#endif
