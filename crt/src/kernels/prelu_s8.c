/* int8 PRELU with broadcasting (aot/kernels/prelu.h). */
#include "aot_sched.h"

#include "aot/kernels/prelu.h"
#include "aot/requant.h"
#include "broadcast2.h"

static int8_t aot_prelu_value(int32_t x, int32_t alpha, const struct aot_prelu_s8_params* p)
{
    const int32_t v = x + p->input_offset;
    int32_t out = v >= 0
                      ? aot_multiply_by_quantized_multiplier(v, p->multiplier1, p->shift1)
                      : aot_multiply_by_quantized_multiplier(v * (alpha + p->alpha_offset), p->multiplier2, p->shift2);
    out += p->output_offset;
    return (int8_t)(out < -128 ? -128 : (out > 127 ? 127 : out));
}

void aot_prelu_s8(const int8_t* input, const int8_t* alpha, int8_t* output, const int32_t* dims,
                  const int32_t* in_strides, const int32_t* alpha_strides, const struct aot_prelu_s8_params* p)
{
    AOT_BROADCAST_2(dims, in_strides, alpha_strides, output[o] = aot_prelu_value(input[a], alpha[b], p));
}
