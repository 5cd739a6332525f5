/* Reference float32 fully connected layer. */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/fully_connected.h"

void aot_fully_connected_f32(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                             const float* bias, float* output, int32_t out_depth, float act_min, float act_max)
{
    int32_t b, o, d;
    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * accum_depth;
        for (o = 0; o < out_depth; o++) {
            const float* f_o = filter + o * accum_depth;
            float acc = 0.0f;
            for (d = 0; d < accum_depth; d++) {
                acc += in_b[d] * f_o[d];
            }
            if (bias != NULL) {
                acc += bias[o];
            }
            acc = acc < act_min ? act_min : acc;
            acc = acc > act_max ? act_max : acc;
            output[b * out_depth + o] = acc;
        }
    }
}
