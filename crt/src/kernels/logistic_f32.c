/* float32 logistic with TFLite's reference cut-offs. */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/logistic.h"

void aot_logistic_f32(const float* input, float* output, int32_t size)
{
    /* Above the upper cut-off the result is 1 in float; below the lower one
     * exp(x) alone is as accurate and avoids 1 + exp(-x) overflowing. */
    const float cutoff_upper = 16.619047164916992188f;
    const float cutoff_lower = -9.0f;
    int32_t i;
    for (i = 0; i < size; i++) {
        const float x = input[i];
        float y;
        if (x > cutoff_upper) {
            y = 1.0f;
        } else if (x < cutoff_lower) {
            y = expf(x);
        } else {
            y = 1.0f / (1.0f + expf(-x));
        }
        output[i] = y;
    }
}
