/* float32 LOG_SOFTMAX over the last dimension (aot/kernels/normalize.h). */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/normalize.h"

void aot_log_softmax_f32(const float* input, float* output, int32_t rows, int32_t depth)
{
    int32_t r, c;
    for (r = 0; r < rows; r++) {
        const float* x = input + r * depth;
        float* y = output + r * depth;
        float max = x[0];
        float sum = 0.0f;
        float log_sum;
        for (c = 1; c < depth; c++) {
            max = x[c] > max ? x[c] : max;
        }
        for (c = 0; c < depth; c++) {
            sum += expf(x[c] - max);
        }
        log_sum = logf(sum);
        for (c = 0; c < depth; c++) {
            y[c] = x[c] - max - log_sum;
        }
    }
}
