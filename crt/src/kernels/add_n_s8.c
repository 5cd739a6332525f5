/* int8 ADD_N (aot/kernels/add_n.h). */
#include "aot_sched.h"

#include "aot/kernels/add_n.h"
#include "aot/requant.h"

#define AOT_ADD_N_SHIFT 20

void aot_add_n_s8_begin(int32_t* acc, int32_t size, int32_t input_offset, int32_t in_multiplier, int32_t in_shift)
{
    const int32_t start =
        aot_multiply_by_quantized_multiplier(input_offset * (1 << AOT_ADD_N_SHIFT), in_multiplier, in_shift);
    int32_t i;
    for (i = 0; i < size; i++) {
        acc[i] = start;
    }
}

void aot_add_n_s8_add(const int8_t* input, int32_t* acc, int32_t size, int32_t input_offset, int32_t in_multiplier,
                      int32_t in_shift)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        acc[i] += aot_multiply_by_quantized_multiplier(((int32_t)input[i] + input_offset) * (1 << AOT_ADD_N_SHIFT),
                                                       in_multiplier, in_shift);
    }
}

void aot_add_n_s8_end(const int32_t* acc, int8_t* output, int32_t size, int32_t out_multiplier, int32_t out_shift,
                      int32_t output_offset)
{
    int32_t i;
    for (i = 0; i < size; i++) {
        const int32_t v = aot_multiply_by_quantized_multiplier(acc[i], out_multiplier, out_shift) + output_offset;
        output[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    }
}
