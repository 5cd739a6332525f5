/* int8 and int16 batched matrix products (aot/kernels/batch_matmul.h). */
#include "aot_sched.h"

#include "aot/kernels/batch_matmul.h"
#include "aot/requant.h"

void aot_batch_matmul_s8(const int8_t* a, const int8_t* b, int8_t* output, int32_t batches, int32_t m, int32_t k,
                         int32_t n, int32_t a_batch_stride, int32_t b_batch_stride, int32_t a_offset, int32_t b_offset,
                         int32_t multiplier, int32_t shift, int32_t output_offset)
{
    int32_t bi, r, c, i;
    for (bi = 0; bi < batches; bi++) {
        const int8_t* pa = a + bi * a_batch_stride;
        const int8_t* pb = b + bi * b_batch_stride;
        int8_t* po = output + bi * m * n;
        for (r = 0; r < m; r++) {
            for (c = 0; c < n; c++) {
                int32_t acc = 0;
                int32_t v;
                for (i = 0; i < k; i++) {
                    acc += ((int32_t)pa[r * k + i] + a_offset) * ((int32_t)pb[i * n + c] + b_offset);
                }
                v = aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + output_offset;
                po[r * n + c] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
            }
        }
    }
}

void aot_batch_matmul_s16(const int16_t* a, const int16_t* b, int16_t* output, int32_t batches, int32_t m, int32_t k,
                          int32_t n, int32_t a_batch_stride, int32_t b_batch_stride, int32_t reduced_multiplier,
                          int32_t total_shift)
{
    int32_t bi, r, c, i;
    for (bi = 0; bi < batches; bi++) {
        const int16_t* pa = a + bi * a_batch_stride;
        const int16_t* pb = b + bi * b_batch_stride;
        int16_t* po = output + bi * m * n;
        for (r = 0; r < m; r++) {
            for (c = 0; c < n; c++) {
                int64_t acc = 0;
                int64_t v;
                for (i = 0; i < k; i++) {
                    acc += (int64_t)((int32_t)pa[r * k + i] * (int32_t)pb[i * n + c]);
                }
                v = (acc * reduced_multiplier + ((int64_t)1 << (total_shift - 1))) >> total_shift;
                po[r * n + c] = (int16_t)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
            }
        }
    }
}
