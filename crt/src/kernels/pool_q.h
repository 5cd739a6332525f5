/* Quantized max and average pooling over NHWC tensors, shared by the int8 and int16 kernels (max_pool_s8.c,
 * max_pool_s16.c, avg_pool_s8.c, avg_pool_s16.c): only in-image taps count (TFLite semantics), the average rounds
 * half away from zero in int32 (an int16 window sums to at most 2^15 taps times 2^15), and the result is clamped to
 * the activation bounds (in output units).  The element size is a constant of each kernel, so the loads and stores
 * fold to its type.  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_POOL_Q_H_
#define AOT_SRC_KERNELS_POOL_Q_H_

#include <stdint.h>

#include "aot/errors.h"

struct aot_pool_q_shape {
    int32_t batches, in_h, in_w, channels, out_h, out_w, filter_h, filter_w, stride_h, stride_w, pad_top, pad_left;
};

static inline int32_t aot_pool_q_load(const void* data, int32_t index, int32_t size)
{
    return size == 1 ? (int32_t)((const int8_t*)data)[index] : (int32_t)((const int16_t*)data)[index];
}

/* Max (average = 0) or average (average = 1) pooling; AOT_ERR_KERNEL for an empty window (impossible for the
 * shapes the compiler accepts). */
static inline int32_t aot_pool_q(const void* input, void* output, const struct aot_pool_q_shape* s, int32_t size,
                                 int average, int32_t act_min, int32_t act_max)
{
    const int32_t lowest = size == 1 ? -128 : -32768;
    int32_t b, oy, ox, c, fy, fx;
    for (b = 0; b < s->batches; b++) {
        for (oy = 0; oy < s->out_h; oy++) {
            const int32_t y0 = oy * s->stride_h - s->pad_top;
            const int32_t fy_start = y0 < 0 ? -y0 : 0;
            const int32_t fy_end = s->filter_h < s->in_h - y0 ? s->filter_h : s->in_h - y0;
            for (ox = 0; ox < s->out_w; ox++) {
                const int32_t x0 = ox * s->stride_w - s->pad_left;
                const int32_t fx_start = x0 < 0 ? -x0 : 0;
                const int32_t fx_end = s->filter_w < s->in_w - x0 ? s->filter_w : s->in_w - x0;
                const int32_t count = (fy_end - fy_start) * (fx_end - fx_start);
                if (average && (fy_end <= fy_start || fx_end <= fx_start)) {
                    return AOT_ERR_KERNEL;
                }
                for (c = 0; c < s->channels; c++) {
                    const int32_t o = ((b * s->out_h + oy) * s->out_w + ox) * s->channels + c;
                    int32_t acc = average ? 0 : lowest;
                    for (fy = fy_start; fy < fy_end; fy++) {
                        for (fx = fx_start; fx < fx_end; fx++) {
                            const int32_t v = aot_pool_q_load(
                                input, ((b * s->in_h + y0 + fy) * s->in_w + x0 + fx) * s->channels + c, size);
                            if (average) {
                                acc += v;
                            } else {
                                acc = v > acc ? v : acc;
                            }
                        }
                    }
                    if (average) {
                        /* C division truncates, so bias by half the divisor away from zero. */
                        acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
                    }
                    acc = acc < act_min ? act_min : acc;
                    acc = acc > act_max ? act_max : acc;
                    if (size == 1) {
                        ((int8_t*)output)[o] = (int8_t)acc;
                    } else {
                        ((int16_t*)output)[o] = (int16_t)acc;
                    }
                }
            }
        }
    }
    return AOT_OK;
}

#endif
