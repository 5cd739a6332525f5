/* float32 SVDF, summing in TFLite Micro's reference order (each filter's time dot product from 0.0f, oldest step
 * first, then the unit's bias plus its filters' sums in rank order), so results match it on the same FPU. The
 * state rows are rings (see aot/kernels/svdf.h). */
#include "aot_sched.h"

#include "aot/kernels/svdf.h"

void aot_svdf_f32(const float* input, const float* weights_feature, const float* weights_time, const float* bias,
                  float* state, int32_t* position, float* output, const struct aot_svdf_shape* shape, float act_min,
                  float act_max)
{
    const int32_t filters = shape->num_filters, memory = shape->memory_size, rank = shape->rank;
    const int32_t units = filters / rank, slot = *position, oldest = slot + 1 == memory ? 0 : slot + 1;
    const int32_t first_run = memory - oldest;
    int32_t b, f, u, r, m, c;
    for (b = 0; b < shape->batches; b++) {
        const float* in = input + b * shape->input_size;
        float* st = state + b * filters * memory;
        for (f = 0; f < filters; f++) {
            const float* w = weights_feature + f * shape->input_size;
            float acc = 0.0f;
            for (c = 0; c < shape->input_size; c++) {
                acc += w[c] * in[c];
            }
            st[f * memory + slot] = acc;
        }
        for (u = 0; u < units; u++) {
            float acc = bias[u];
            for (r = 0; r < rank; r++) {
                const int32_t row = u * rank + r;
                const float* w = weights_time + row * memory;
                const float* s = st + row * memory;
                float dot = 0.0f;
                for (m = 0; m < first_run; m++) {
                    dot += w[m] * s[oldest + m];
                }
                for (; m < memory; m++) {
                    dot += w[m] * s[m - first_run];
                }
                acc += dot;
            }
            acc = acc < act_min ? act_min : acc;
            output[b * units + u] = acc > act_max ? act_max : acc;
        }
    }
    *position = oldest;
}
