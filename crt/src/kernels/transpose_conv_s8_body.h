/* Private: the gather walk of the fast int8 TRANSPOSE_CONV kernels (aot/kernels/transpose_conv.h).  Per output
 * pixel, four output channels at a time, a per-kernel function sums every tap reaching the pixel (the dot products
 * of the stored int8 values, plus tap_bias: the input offset times the tap's weight sum) with its four sums held in
 * registers across the taps; everything wraps like TFLite's int32 accumulator.  Then TFLite's requantization. */
#ifndef AOT_KERNELS_TRANSPOSE_CONV_S8_BODY_H_
#define AOT_KERNELS_TRANSPOSE_CONV_S8_BODY_H_

#include <stdint.h>
#include <stddef.h>

#include "aot/requant.h"
#include "transpose_conv_taps.h"

/* The layer's geometry, and the output pixel being summed (oy_pad = oy + pad_top, iy0 its first input row; the
 * same for columns). */
struct aot_tconv_s8_geom {
    const int8_t* in_b;
    const int8_t* filter;
    const int32_t* tap_bias;
    int32_t in_w, in_c, filter_h, filter_w, stride_h, stride_w, taps, oc_stride;
    int32_t oy_pad, ox_pad, iy0, ix0;
};

/* acc[j] += the sums of output channel oc + j over the pixel's taps, j < 4 (pixel4) or j < 1 (pixel1). */
typedef void (*aot_tconv_pixel_fn)(const struct aot_tconv_s8_geom* g, int32_t oc, uint32_t* acc);

/* out[j] = the requantized acc[j] of channels oc + j, j < 4 (scalar here; a kernel may vectorize it). */
typedef void (*aot_tconv_store4_fn)(const uint32_t* acc, const int32_t* mult, const int32_t* shift, int32_t out_off,
                                    int32_t act_min, int32_t act_max, int8_t* out);

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
                                     const int32_t* tap_bias, aot_tconv_pixel_fn pixel4, aot_tconv_pixel_fn pixel1,
                                     aot_tconv_store4_fn store4)
{
    struct aot_tconv_s8_geom g;
    int32_t b, oy, ox, oc, j;
    g.filter = filter;
    g.tap_bias = tap_bias;
    g.in_w = in_w;
    g.in_c = in_c;
    g.filter_h = filter_h;
    g.filter_w = filter_w;
    g.stride_h = stride_h;
    g.stride_w = stride_w;
    g.taps = filter_h * filter_w;
    g.oc_stride = g.taps * in_c;
    for (b = 0; b < batches; b++) {
        g.in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            g.oy_pad = oy + pad_top;
            g.iy0 = aot_tconv_first(oy, pad_top, stride_h, in_h);
            for (ox = 0; ox < out_w; ox++) {
                g.ox_pad = ox + pad_left;
                g.ix0 = aot_tconv_first(ox, pad_left, stride_w, in_w);
                for (oc = 0; oc < out_c;) {
                    const int32_t n = out_c - oc >= 4 ? 4 : 1;
                    uint32_t acc[4];
                    for (j = 0; j < n; j++) {
                        acc[j] = bias != NULL ? (uint32_t)bias[oc + j] : 0u;
                    }
                    if (n == 4) {
                        pixel4(&g, oc, acc);
                        store4(acc, mult + oc, shift + oc, output_offset, act_min, act_max, output + oc);
                        oc += 4;
                        continue;
                    }
                    pixel1(&g, oc, acc);
                    for (j = 0; j < n; j++) {
                        output[oc] = aot_tconv_requant(acc[j], mult[oc], shift[oc], output_offset, act_min, act_max);
                        oc++;
                    }
                }
                output += out_c;
            }
        }
    }
}

static inline void aot_tconv_store4_scalar(const uint32_t* acc, const int32_t* mult, const int32_t* shift,
                                           int32_t out_off, int32_t act_min, int32_t act_max, int8_t* out)
{
    int32_t j;
    for (j = 0; j < 4; j++) {
        out[j] = aot_tconv_requant(acc[j], mult[j], shift[j], out_off, act_min, act_max);
    }
}

#endif
