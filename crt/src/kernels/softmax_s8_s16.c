/* int8 -> int16 softmax (TFLite's int8 scheme with a 16-bit result, softmax_s8_body.h); output scale 1/65536,
 * zero point -32768. */
#include "aot_sched.h"

#include "aot/kernels/softmax.h"
#include "softmax_s8_body.h"

void aot_softmax_s8_s16(const int8_t* input, int32_t outer, int32_t depth, int32_t input_multiplier,
                        int32_t input_left_shift, int32_t diff_min, int16_t* output)
{
    aot_softmax_s8_body(input, outer, depth, input_multiplier, input_left_shift, diff_min, output, 2);
}
