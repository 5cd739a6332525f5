/* Fast float32 2-D convolution (groups of one): pairs of output pixels times blocks of output channels through the
 * GEMM tile of gemm_f32_tile.h (Helium, the FPU's VFMA, or C), each pixel's window gathered into a row of K taps in
 * scratch in the filter's (fy, fx, ic) order, zeros for the taps outside the image; a pixel whose window is one
 * contiguous run of the input (a 1 x W filter, dilation 1, inside the image: every 1x1 convolution) is read in
 * place. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/conv2d.h"
#include "gemm_f32_tile.h"

/* Pixel `px`'s window as a row of K taps: in place, or gathered into `row`. */
static const float* aot_conv_f32_row(const float* in_b, int32_t px, int32_t in_h, int32_t in_w, int32_t in_c,
                                     int32_t filter_h, int32_t filter_w, int32_t out_w, int32_t stride_h,
                                     int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                     int32_t pad_left, float* row)
{
    const int32_t y0 = (px / out_w) * stride_h - pad_top, x0 = (px % out_w) * stride_w - pad_left;
    const int32_t run = filter_w * in_c;
    int32_t fy, fx;
    if (filter_h == 1 && dilation_w == 1 && y0 >= 0 && y0 < in_h && x0 >= 0 && x0 + filter_w <= in_w) {
        return in_b + (y0 * in_w + x0) * in_c;
    }
    for (fy = 0; fy < filter_h; fy++) {
        const int32_t iy = y0 + dilation_h * fy;
        float* r = row + fy * run;
        if (iy < 0 || iy >= in_h) {
            memset(r, 0, (size_t)run * sizeof(float));
        } else if (dilation_w == 1 && x0 >= 0 && x0 + filter_w <= in_w) {
            memcpy(r, in_b + (iy * in_w + x0) * in_c, (size_t)run * sizeof(float));
        } else {
            for (fx = 0; fx < filter_w; fx++) {
                const int32_t ix = x0 + dilation_w * fx;
                if (ix < 0 || ix >= in_w) {
                    memset(r + fx * in_c, 0, (size_t)in_c * sizeof(float));
                } else {
                    memcpy(r + fx * in_c, in_b + (iy * in_w + ix) * in_c, (size_t)in_c * sizeof(float));
                }
            }
        }
    }
    return row;
}

void aot_conv2d_f32_gemm(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                         const float* filter, int32_t filter_h, int32_t filter_w, int32_t block, const float* bias,
                         float* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                         int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                         float act_min, float act_max, float* scratch)
{
    const int32_t k = filter_h * filter_w * in_c, pixels = out_h * out_w;
    int32_t b, px, c;
    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        float* out_b = output + b * pixels * out_c;
        for (px = 0; px < pixels; px += 2) {
            const int32_t rows = px + 1 < pixels ? 2 : 1;
            const float* a0 = aot_conv_f32_row(in_b, px, in_h, in_w, in_c, filter_h, filter_w, out_w, stride_h,
                                               stride_w, dilation_h, dilation_w, pad_top, pad_left, scratch);
            const float* a1 = rows == 2 ? aot_conv_f32_row(in_b, px + 1, in_h, in_w, in_c, filter_h, filter_w, out_w,
                                                           stride_h, stride_w, dilation_h, dilation_w, pad_top,
                                                           pad_left, scratch + k)
                                        : a0;
            const float* w = filter;
            for (c = 0; c < out_c; c += block) {
                float acc[2 * AOT_F32_MAX_BLOCK] = {0.0f};
                const int32_t count = out_c - c < block ? out_c - c : block;
                aot_f32_tile(a0, a1, w, k, block, acc);
                aot_f32_tile_store(acc, block, bias == 0 ? 0 : bias + c, count, rows, out_b + px * out_c + c,
                                   out_b + (px + rows - 1) * out_c + c, act_min, act_max);
                w += k * block;
            }
        }
    }
}
