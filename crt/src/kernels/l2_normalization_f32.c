/* float32 L2_NORMALIZATION over the last dimension (aot/kernels/normalize.h). */
#include "aot_sched.h"

#include <math.h>

#include "aot/kernels/normalize.h"

void aot_l2_normalization_f32(const float* input, float* output, int32_t rows, int32_t depth)
{
    int32_t r, c;
    for (r = 0; r < rows; r++) {
        const float* x = input + r * depth;
        float sq = 0.0f;
        float norm;
        for (c = 0; c < depth; c++) {
            sq += x[c] * x[c];
        }
        norm = sqrtf(sq);
        norm = norm > 1e-6f ? norm : 1e-6f;
        for (c = 0; c < depth; c++) {
            output[r * depth + c] = x[c] / norm;
        }
    }
}
