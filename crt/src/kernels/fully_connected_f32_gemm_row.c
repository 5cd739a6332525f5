/* The fast float32 fully connected layer one row at a time (fully_connected_f32_gemm_body.h): a unit of its own,
 * which the compiler calls for a batch of one, so that an image of such layers links no pair tile. */
#include "aot_sched.h"

#include "fully_connected_f32_gemm_body.h"

void aot_fully_connected_f32_gemm_row(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                      int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                      float act_max)
{
    aot_fc_f32_gemm_body(input, batches, accum_depth, filter, block, bias, output, out_depth, act_min, act_max, 1);
}
