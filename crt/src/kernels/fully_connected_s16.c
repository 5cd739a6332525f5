/* int16x8 fully connected layer (aot/kernels/fully_connected.h, acc16_inline.h): the portable entry point and the
 * SMLAD one (acc16_dsp.h), one body with the dot product chosen by a constant. */
#include "aot_sched.h"

#include "aot/kernels/fully_connected.h"

#include "acc16_dsp.h"
#include "aot/kernels/requant_s8_inline.h"

AOT_INLINE_BODY void fully_connected_s16_body(const int16_t* input, int32_t batches, int32_t accum_depth,
                                              const int8_t* filter, const int32_t* bias, int16_t* output,
                                              int32_t out_depth, int32_t mode, const int32_t* out_multiplier,
                                              const int32_t* out_shift, int32_t multiplier_stride, int32_t act_min,
                                              int32_t act_max, int32_t dsp)
{
    int32_t b, o, step;

    for (b = 0; b < batches; b++) {
        const int16_t* x = input + b * accum_depth;
        /* SMLAD entry point: two output rows per pass share every input load. */
        for (o = 0; o < out_depth; o += step) {
            const int8_t* w = filter + o * accum_depth;
            struct aot_acc16 acc = {0u, 0u}, acc1 = {0u, 0u};
            step = dsp && o + 1 < out_depth ? 2 : 1;
            if (step == 2) {
                aot_acc16_dot2_dsp(&acc, &acc1, x, w, w + accum_depth, accum_depth);
            } else if (dsp) {
                aot_acc16_dot_dsp(&acc, x, w, accum_depth);
            } else {
                aot_acc16_dot(&acc, mode, x, 1, w, 1, accum_depth);
            }
            output[b * out_depth + o] = aot_acc16_out(&acc, mode, bias, o, out_multiplier[o * multiplier_stride],
                                                      out_shift[o * multiplier_stride], act_min, act_max);
            if (step == 2) {
                output[b * out_depth + o + 1] =
                    aot_acc16_out(&acc1, mode, bias, o + 1, out_multiplier[(o + 1) * multiplier_stride],
                                  out_shift[(o + 1) * multiplier_stride], act_min, act_max);
            }
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
                                 const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                 int32_t act_min, int32_t act_max)
{
    fully_connected_s16_body(input, batches, accum_depth, filter, bias, output, out_depth, mode, out_multiplier,
                             out_shift, multiplier_stride, act_min, act_max, 1);
}
