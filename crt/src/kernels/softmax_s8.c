/* int8 softmax using gemmlowp fixed-point exp and reciprocal (softmax_s8_body.h); output scale 1/256, zero point
 * -128. */
#include "aot_sched.h"

#include "aot/kernels/softmax.h"
#include "softmax_s8_body.h"

void aot_softmax_s8(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                    int32_t input_left_shift, int32_t diff_min, int8_t* output)
{
    aot_softmax_s8_body(input, outer, depth, input_multiplier, input_left_shift, diff_min, output, 1);
}
