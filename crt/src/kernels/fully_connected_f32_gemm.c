/* Fast float32 fully connected layer: pairs of batch rows times blocks of output units through the GEMM tile of
 * gemm_f32_tile.h (Helium, the FPU's VFMA, or C); a single row is paired with itself. */
#include "aot_sched.h"

#include <stddef.h>

#include "aot/kernels/fully_connected.h"
#include "gemm_f32_tile.h"

void aot_fully_connected_f32_gemm(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                  int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                  float act_max)
{
    int32_t b, o;
    for (b = 0; b < batches; b += 2) {
        const int32_t rows = b + 1 < batches ? 2 : 1;
        const float* a0 = input + b * accum_depth;
        const float* a1 = rows == 2 ? a0 + accum_depth : a0;
        const float* w = filter;
        for (o = 0; o < out_depth; o += block) {
            float acc[2 * AOT_F32_MAX_BLOCK];
            const int32_t count = out_depth - o < block ? out_depth - o : block;
            aot_f32_tile(a0, a1, w, accum_depth, block, aot_f32_zeros, acc);
            aot_f32_tile_store(acc, block, bias == NULL ? NULL : bias + o, count, rows, output + b * out_depth + o,
                               output + (b + rows - 1) * out_depth + o, act_min, act_max);
            w += accum_depth * block;
        }
    }
}
