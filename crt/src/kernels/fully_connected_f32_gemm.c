/* The fast float32 fully connected layer for every batch (fully_connected_f32_gemm_body.h): pairs of rows through
 * the GEMM tile. */
#include "aot_sched.h"

#include "fully_connected_f32_gemm_body.h"

void aot_fully_connected_f32_gemm(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                  int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                  float act_max)
{
    aot_fc_f32_gemm_body(input, batches, accum_depth, filter, block, bias, output, out_depth, act_min, act_max, 0);
}
