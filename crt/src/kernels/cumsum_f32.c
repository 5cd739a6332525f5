/* float32 CUMSUM (aot/kernels/cumsum.h). */
#include "aot_sched.h"

#include "aot/kernels/cumsum.h"

void aot_cumsum_f32(const float* input, float* output, int32_t outer, int32_t axis_size, int32_t inner,
                    int32_t exclusive, int32_t reverse)
{
    int32_t o, i, k;
    for (o = 0; o < outer; o++) {
        for (i = 0; i < inner; i++) {
            float acc = 0.0f;
            for (k = 0; k < axis_size; k++) {
                const int32_t at = o * axis_size * inner + (reverse ? axis_size - 1 - k : k) * inner + i;
                if (exclusive) {
                    output[at] = acc;
                    acc += input[at];
                } else {
                    acc += input[at];
                    output[at] = acc;
                }
            }
        }
    }
}
