/* A user kernel standing in for the built-in int8 FULLY_CONNECTED (aot_model_library(offload =
 * {"FULLY_CONNECTED": ":user_fc"})): written here from TFLite Micro's integer semantics, not by calling the CRT's
 * kernel, so the example shows that an accelerator driver (or any code of yours) receiving the compiler's
 * precomputed parameters reproduces the built-in results bit for bit.
 *
 * It takes the parameter list of aot_fully_connected_s8 (crt/include/aot/kernels/fully_connected.h): the input
 * zero point already negated (input_offset), the output zero point, per output channel (multiplier_stride 1) or
 * per tensor (0) the Q0.31 multiplier and its shift, and the fused activation's clamp. */
#include <stdint.h>

#include "aot/errors.h"
#include "aot/requant.h"
#include "aot/user_kernel.h"
#include "user_kernels.h"

int32_t user_fc_calls = 0;
int32_t user_fc_fail_at = -1;

int32_t user_fully_connected_s8(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                const int32_t* bias, int8_t* output, int32_t out_depth, int32_t input_offset,
                                int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                                int32_t multiplier_stride, int32_t act_min, int32_t act_max)
{
    int32_t b, o, d;
    if (user_fc_calls++ == user_fc_fail_at) {
        /* An accelerator would report a fault here; the model's run returns this code unchanged. */
        return USER_FC_FAULT;
    }
    for (b = 0; b < batches; ++b) {
        const int8_t* in = input + b * accum_depth;
        for (o = 0; o < out_depth; ++o) {
            const int8_t* w = filter + o * accum_depth;
            int32_t acc = bias != 0 ? bias[o] : 0;
            int32_t q;
            for (d = 0; d < accum_depth; ++d) {
                acc += ((int32_t)in[d] + input_offset) * (int32_t)w[d];
            }
            q = aot_multiply_by_quantized_multiplier(acc, out_multiplier[o * multiplier_stride],
                                                     out_shift[o * multiplier_stride]) +
                output_offset;
            q = q < act_min ? act_min : q;
            q = q > act_max ? act_max : q;
            output[b * out_depth + o] = (int8_t)q;
        }
    }
    return AOT_OK;
}
