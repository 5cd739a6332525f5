/* Reference int8 fully connected layer (weights [out_depth][accum_depth]). */
#include "aot/kernels/fully_connected.h"
#include "aot/requant.h"

void aot_fully_connected_s8(const int8_t* input, int32_t batches, int32_t accum_depth,
                            const int8_t* filter, const int32_t* bias, int8_t* output,
                            int32_t out_depth, int32_t input_offset, int32_t output_offset,
                            const int32_t* out_multiplier, const int32_t* out_shift,
                            int32_t multiplier_stride, int32_t act_min, int32_t act_max)
{
    int32_t b, o, d;
    for (b = 0; b < batches; b++) {
        const int8_t* in_b = input + b * accum_depth;
        for (o = 0; o < out_depth; o++) {
            const int8_t* f_o = filter + o * accum_depth;
            int32_t acc = 0;
            for (d = 0; d < accum_depth; d++) {
                acc += (int32_t)f_o[d] * ((int32_t)in_b[d] + input_offset);
            }
            if (bias != 0) {
                acc += bias[o];
            }
            acc = aot_multiply_by_quantized_multiplier(acc, out_multiplier[o * multiplier_stride],
                                                       out_shift[o * multiplier_stride]);
            acc += output_offset;
            acc = acc < act_min ? act_min : acc;
            acc = acc > act_max ? act_max : acc;
            output[b * out_depth + o] = (int8_t)acc;
        }
    }
}
