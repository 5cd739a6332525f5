/* Reference float32 average pooling. */
#include "aot_sched.h"

#include "aot/errors.h"
#include "aot/kernels/pooling.h"

int32_t aot_avg_pool_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                         float* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                         int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, float act_min,
                         float act_max)
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
                if (fy_end <= fy_start || fx_end <= fx_start) {
                    return AOT_ERR_KERNEL;
                }
                for (c = 0; c < channels; c++) {
                    float acc = 0.0f;
                    for (fy = fy_start; fy < fy_end; fy++) {
                        for (fx = fx_start; fx < fx_end; fx++) {
                            acc += input[((b * in_h + y0 + fy) * in_w + x0 + fx) * channels + c];
                        }
                    }
                    acc = acc / (float)count;
                    acc = acc < act_min ? act_min : acc;
                    acc = acc > act_max ? act_max : acc;
                    output[((b * out_h + oy) * out_w + ox) * channels + c] = acc;
                }
            }
        }
    }
    return AOT_OK;
}
