/* float32 batched matrix product, accumulating in float in k order. */
#include "aot_sched.h"

#include "aot/kernels/batch_matmul.h"

void aot_batch_matmul_f32(const float* a, const float* b, float* output, int32_t batches, int32_t m, int32_t k,
                          int32_t n, int32_t a_batch_stride, int32_t b_batch_stride)
{
    int32_t bi, r, c, i;
    for (bi = 0; bi < batches; bi++) {
        const float* pa = a + bi * a_batch_stride;
        const float* pb = b + bi * b_batch_stride;
        float* po = output + bi * m * n;
        for (r = 0; r < m; r++) {
            for (c = 0; c < n; c++) {
                float acc = 0.0f;
                for (i = 0; i < k; i++) {
                    acc += pa[r * k + i] * pb[i * n + c];
                }
                po[r * n + c] = acc;
            }
        }
    }
}
