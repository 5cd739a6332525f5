/* int8 mean with TFLite's integer requantization of the sum (mean_q.h). */
#include "aot/kernels/mean.h"
#include "mean_q.h"

void aot_mean_s8(const int8_t* input, int8_t* output, const int32_t* in_dims,
                 const int32_t* reduced, int32_t input_offset, int32_t multiplier, int32_t shift,
                 int32_t output_offset)
{
    aot_mean_q(input, output, 1, in_dims, reduced, input_offset, multiplier, shift, output_offset);
}
