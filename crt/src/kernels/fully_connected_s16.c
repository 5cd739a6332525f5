/* int16x8 fully connected layer (aot/kernels/fully_connected.h, acc16_inline.h). */
#include "aot/kernels/fully_connected.h"

#include "aot/kernels/acc16_inline.h"

void aot_fully_connected_s16(const int16_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                             const int32_t* bias, int16_t* output, int32_t out_depth, int32_t mode,
                             const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                             int32_t act_min, int32_t act_max)
{
    int32_t b, o;

    for (b = 0; b < batches; b++) {
        for (o = 0; o < out_depth; o++) {
            struct aot_acc16 acc = {0u, 0u};
            aot_acc16_dot(&acc, mode, input + b * accum_depth, 1, filter + o * accum_depth, 1, accum_depth);
            output[b * out_depth + o] = aot_acc16_out(&acc, mode, bias, o, out_multiplier[o * multiplier_stride],
                                                      out_shift[o * multiplier_stride], act_min, act_max);
        }
    }
}
