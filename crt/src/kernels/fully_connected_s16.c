/* int16x8 fully connected layer (aot/kernels/fully_connected.h, acc16_inline.h): the portable entry point and the
 * SMLAD one (acc16_dsp.h), one body with the dot product chosen by a constant. */
#include "aot/kernels/fully_connected.h"

#include "acc16_dsp.h"
#include "aot/kernels/requant_s8_inline.h"

AOT_INLINE_BODY void fully_connected_s16_body(const int16_t* input, int32_t batches, int32_t accum_depth,
                                              const int8_t* filter, const int32_t* bias, int16_t* output,
                                              int32_t out_depth, int32_t mode, const int32_t* out_multiplier,
                                              const int32_t* out_shift, int32_t multiplier_stride, int32_t act_min,
                                              int32_t act_max, int32_t dsp)
{
    int32_t b, o;

    for (b = 0; b < batches; b++) {
        for (o = 0; o < out_depth; o++) {
            struct aot_acc16 acc = {0u, 0u};
            if (dsp) {
                aot_acc16_dot_dsp(&acc, input + b * accum_depth, filter + o * accum_depth, accum_depth);
            } else {
                aot_acc16_dot(&acc, mode, input + b * accum_depth, 1, filter + o * accum_depth, 1, accum_depth);
            }
            output[b * out_depth + o] = aot_acc16_out(&acc, mode, bias, o, out_multiplier[o * multiplier_stride],
                                                      out_shift[o * multiplier_stride], act_min, act_max);
        }
    }
}

void aot_fully_connected_s16(const int16_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                             const int32_t* bias, int16_t* output, int32_t out_depth, int32_t mode,
                             const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                             int32_t act_min, int32_t act_max)
{
    fully_connected_s16_body(input, batches, accum_depth, filter, bias, output, out_depth, mode, out_multiplier,
                             out_shift, multiplier_stride, act_min, act_max, 0);
}

void aot_fully_connected_s16_dsp(const int16_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                 const int32_t* bias, int16_t* output, int32_t out_depth, int32_t mode,
                                 const int32_t* out_multiplier, const int32_t* out_shift,
                                 int32_t multiplier_stride, int32_t act_min, int32_t act_max)
{
    fully_connected_s16_body(input, batches, accum_depth, filter, bias, output, out_depth, mode, out_multiplier,
                             out_shift, multiplier_stride, act_min, act_max, 1);
}
