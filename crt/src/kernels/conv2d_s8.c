/* Reference int8 2-D convolution with per-channel requantization, optionally followed per element by a fused
 * residual ADD (aot/kernels/conv2d.h).
 *
 * Accumulation, bias add, requantization and clamping happen in exactly the
 * order of TFLite's reference kernel so results are bit-identical.
 */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/conv2d.h"
#include "aot/requant.h"
#include "add_s8_elem.h"

/* The whole layer; `fused` is a constant in each of the two entry points below (aot_conv2d_s8_add only links
 * into firmware with fused layers). */
AOT_ALWAYS_INLINE void
aot_conv2d_s8_body(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const int8_t* filter,
                   int32_t filter_h, int32_t filter_w, int32_t filter_depth, const int32_t* bias, int8_t* output,
                   int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                   int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                   const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max,
                   const int8_t* residual, const struct aot_add_s8_params* residual_add, int fused)
{
    const int32_t groups = in_c / filter_depth;
    const int32_t filters_per_group = out_c / groups;
    struct aot_add_s8_params add;
    int32_t b, oy, ox, oc, fy, fx, ic;

    if (fused) {
        add = *residual_add; /* a local copy: the int8 stores below cannot alias it */
    }

    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            const int32_t in_y0 = oy * stride_h - pad_top;
            for (ox = 0; ox < out_w; ox++) {
                const int32_t in_x0 = ox * stride_w - pad_left;
                const int32_t px = ((b * out_h + oy) * out_w + ox) * out_c;
                int8_t* out_px = output + px;
                for (oc = 0; oc < out_c; oc++) {
                    const int32_t in_c0 = (oc / filters_per_group) * filter_depth;
                    const int8_t* f_oc = filter + oc * filter_h * filter_w * filter_depth;
                    int32_t acc = 0;
                    for (fy = 0; fy < filter_h; fy++) {
                        const int32_t iy = in_y0 + dilation_h * fy;
                        if (iy < 0 || iy >= in_h) {
                            continue;
                        }
                        for (fx = 0; fx < filter_w; fx++) {
                            const int32_t ix = in_x0 + dilation_w * fx;
                            const int8_t* in_px;
                            const int8_t* f_px;
                            if (ix < 0 || ix >= in_w) {
                                continue;
                            }
                            in_px = in_b + (iy * in_w + ix) * in_c + in_c0;
                            f_px = f_oc + (fy * filter_w + fx) * filter_depth;
                            for (ic = 0; ic < filter_depth; ic++) {
                                acc += (int32_t)f_px[ic] * ((int32_t)in_px[ic] + input_offset);
                            }
                        }
                    }
                    if (bias != NULL) {
                        acc += bias[oc];
                    }
                    acc = aot_multiply_by_quantized_multiplier(acc, out_multiplier[oc], out_shift[oc]);
                    acc += output_offset;
                    acc = acc < act_min ? act_min : acc;
                    acc = acc > act_max ? act_max : acc;
                    if (fused) {
                        acc = aot_add_s8_elem(acc, residual[px + oc], &add, 0);
                    }
                    out_px[oc] = (int8_t)acc;
                }
            }
        }
    }
}

void aot_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c, const int8_t* filter,
                   int32_t filter_h, int32_t filter_w, int32_t filter_depth, const int32_t* bias, int8_t* output,
                   int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                   int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                   const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min, int32_t act_max)
{
    aot_conv2d_s8_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, filter_depth, bias, output, out_h,
                       out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_offset,
                       output_offset, out_multiplier, out_shift, act_min, act_max, (const int8_t*)0,
                       (const struct aot_add_s8_params*)0, 0);
}

void aot_conv2d_s8_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                       const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                       const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                       int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                       int32_t pad_left, int32_t input_offset, int32_t output_offset, const int32_t* out_multiplier,
                       const int32_t* out_shift, int32_t act_min, int32_t act_max, const int8_t* residual,
                       const struct aot_add_s8_params* residual_add)
{
    aot_conv2d_s8_body(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, filter_depth, bias, output, out_h,
                       out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, input_offset,
                       output_offset, out_multiplier, out_shift, act_min, act_max, residual, residual_add, 1);
}
