/* Reference int8 2-D convolution with per-channel requantization, optionally followed per element by a fused
 * residual ADD (aot/kernels/conv2d.h).
 *
 * Accumulation, bias add, requantization and clamping happen in exactly the
 * order of TFLite's reference kernel so results are bit-identical.
 */
#include "aot/kernels/conv2d.h"
#include "aot/requant.h"
#include "add_s8_elem.h"

struct aot_conv_s8_args {
    const int8_t* input;
    const int8_t* filter;
    const int32_t* bias;
    const int32_t* out_multiplier;
    const int32_t* out_shift;
    int32_t in_h, in_w, in_c, filter_h, filter_w, filter_depth, filters_per_group;
    int32_t dilation_h, dilation_w, input_offset, output_offset, act_min, act_max;
};

/* Output channel oc of the pixel whose window starts at input (in_y0, in_x0) of batch image in_b: requantized,
 * offset and clamped, as TFLite's reference convolution stores it. */
static inline int32_t aot_conv_s8_value(const struct aot_conv_s8_args* a, const int8_t* in_b, int32_t in_y0,
                                        int32_t in_x0, int32_t oc)
{
    const int32_t in_c0 = (oc / a->filters_per_group) * a->filter_depth;
    const int8_t* f_oc = a->filter + oc * a->filter_h * a->filter_w * a->filter_depth;
    int32_t acc = 0;
    int32_t fy, fx, ic;
    for (fy = 0; fy < a->filter_h; fy++) {
        const int32_t iy = in_y0 + a->dilation_h * fy;
        if (iy < 0 || iy >= a->in_h) {
            continue;
        }
        for (fx = 0; fx < a->filter_w; fx++) {
            const int32_t ix = in_x0 + a->dilation_w * fx;
            const int8_t* in_px;
            const int8_t* f_px;
            if (ix < 0 || ix >= a->in_w) {
                continue;
            }
            in_px = in_b + (iy * a->in_w + ix) * a->in_c + in_c0;
            f_px = f_oc + (fy * a->filter_w + fx) * a->filter_depth;
            for (ic = 0; ic < a->filter_depth; ic++) {
                acc += (int32_t)f_px[ic] * ((int32_t)in_px[ic] + a->input_offset);
            }
        }
    }
    if (a->bias != 0) {
        acc += a->bias[oc];
    }
    acc = aot_multiply_by_quantized_multiplier(acc, a->out_multiplier[oc], a->out_shift[oc]);
    acc += a->output_offset;
    acc = acc < a->act_min ? a->act_min : acc;
    return acc > a->act_max ? a->act_max : acc;
}

void aot_conv2d_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                   const int8_t* filter, int32_t filter_h, int32_t filter_w, int32_t filter_depth,
                   const int32_t* bias, int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c,
                   int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                   int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                   const int32_t* out_multiplier, const int32_t* out_shift,
                   int32_t act_min, int32_t act_max, const int8_t* residual,
                   const struct aot_add_s8_params* residual_add)
{
    struct aot_conv_s8_args a;
    struct aot_add_s8_params add = {0};
    int32_t b, oy, ox, oc;

    a.input = input;
    a.filter = filter;
    a.bias = bias;
    a.out_multiplier = out_multiplier;
    a.out_shift = out_shift;
    a.in_h = in_h;
    a.in_w = in_w;
    a.in_c = in_c;
    a.filter_h = filter_h;
    a.filter_w = filter_w;
    a.filter_depth = filter_depth;
    a.filters_per_group = out_c / (in_c / filter_depth);
    a.dilation_h = dilation_h;
    a.dilation_w = dilation_w;
    a.input_offset = input_offset;
    a.output_offset = output_offset;
    a.act_min = act_min;
    a.act_max = act_max;
    if (residual != 0) {
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
                /* The fused ADD is decided once per pixel, not per element. */
                if (residual == 0) {
                    for (oc = 0; oc < out_c; oc++) {
                        out_px[oc] = (int8_t)aot_conv_s8_value(&a, in_b, in_y0, in_x0, oc);
                    }
                } else {
                    const int8_t* res_px = residual + px;
                    for (oc = 0; oc < out_c; oc++) {
                        out_px[oc] = (int8_t)aot_add_s8_elem(aot_conv_s8_value(&a, in_b, in_y0, in_x0, oc),
                                                             res_px[oc], &add, 0);
                    }
                }
            }
        }
    }
}
