/* Reference float32 softmax (max-subtracted for range safety). */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/softmax.h"

void aot_softmax_f32(const float* input, int32_t outer, int32_t depth, float beta, float* output)
{
    int32_t i, c;
    for (i = 0; i < outer; i++) {
        const float* in_row = input + i * depth;
        float* out_row = output + i * depth;
        float max_v = in_row[0];
        float sum = 0.0f;
        for (c = 1; c < depth; c++) {
            max_v = in_row[c] > max_v ? in_row[c] : max_v;
        }
        for (c = 0; c < depth; c++) {
            const float e = expf((in_row[c] - max_v) * beta);
            out_row[c] = e;
            sum += e;
        }
        for (c = 0; c < depth; c++) {
            out_row[c] = out_row[c] / sum;
        }
    }
}
