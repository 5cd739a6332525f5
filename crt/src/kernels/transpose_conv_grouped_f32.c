/* float32 TRANSPOSE_CONV with groups and dilations, gathered per output pixel (aot/kernels/transpose_conv.h). */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/transpose_conv.h"

/* Output row o is reached by input row i through tap f when o + pad == i * stride + f * dilation.  The taps are
 * walked in ascending f (the order of aot_transpose_conv_f32), so a tap is valid when the remainder is a
 * non-negative multiple of the stride inside the input. */
static int32_t input_index(int32_t o, int32_t pad, int32_t f, int32_t dilation, int32_t stride, int32_t in_size)
{
    const int32_t t = o + pad - f * dilation;
    if (t < 0 || t % stride != 0 || t / stride >= in_size) {
        return -1;
    }
    return t / stride;
}

void aot_transpose_conv_grouped_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                    const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                    float* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                    int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t dilation_h,
                                    int32_t dilation_w, int32_t groups, float act_min, float act_max)
{
    const int32_t cg = in_c / groups;
    const int32_t mg = out_c / groups;
    const int32_t taps = filter_h * filter_w * cg;
    int32_t b, oy, ox, oc, fy, fx, iy, ix, g, m, c;

    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        for (oy = 0; oy < out_h; oy++) {
            for (ox = 0; ox < out_w; ox++) {
                float* out_px = output + ((b * out_h + oy) * out_w + ox) * out_c;
                /* The output pixel is the accumulator: each tap's slice of input adds to its group's channels. */
                for (oc = 0; oc < out_c; oc++) {
                    out_px[oc] = 0.0f;
                }
                for (fy = 0; fy < filter_h; fy++) {
                    if ((iy = input_index(oy, pad_top, fy, dilation_h, stride_h, in_h)) < 0) {
                        continue;
                    }
                    for (fx = 0; fx < filter_w; fx++) {
                        if ((ix = input_index(ox, pad_left, fx, dilation_w, stride_w, in_w)) < 0) {
                            continue;
                        }
                        const float* in_px = in_b + (iy * in_w + ix) * in_c;
                        const float* f_tap = filter + (fy * filter_w + fx) * cg;
                        for (g = 0; g < groups; g++) {
                            const float* in_g = in_px + g * cg;
                            for (m = 0; m < mg; m++) {
                                const float* f_px = f_tap + (g * mg + m) * taps;
                                float acc = 0.0f;
                                for (c = 0; c < cg; c++) {
                                    acc += in_g[c] * f_px[c];
                                }
                                out_px[g * mg + m] += acc;
                            }
                        }
                    }
                }
                for (oc = 0; oc < out_c; oc++) {
                    /* The bias after the taps, as TFLite adds it. */
                    float v = out_px[oc] + (bias != NULL ? bias[oc] : 0.0f);
                    v = v < act_min ? act_min : v;
                    out_px[oc] = v > act_max ? act_max : v;
                }
            }
        }
    }
}
