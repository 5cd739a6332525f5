/* int8 element-wise subtraction with broadcasting (TFLite reference SUB arithmetic). */
#include "aot/kernels/sub.h"
#include "aot/requant.h"

void aot_sub_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims,
                const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset,
                int32_t in1_multiplier, int32_t in1_shift, int32_t in2_offset,
                int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                int32_t out_multiplier, int32_t out_shift, int32_t output_offset,
                int32_t act_min, int32_t act_max)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int32_t base1 = i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int32_t base2 = i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    const int8_t a = in1[base1 + i3 * in1_strides[3]];
                    const int8_t b = in2[base2 + i3 * in2_strides[3]];
                    const int32_t sa = aot_multiply_by_quantized_multiplier(
                        ((int32_t)a + in1_offset) * (1 << left_shift), in1_multiplier, in1_shift);
                    const int32_t sb = aot_multiply_by_quantized_multiplier(
                        ((int32_t)b + in2_offset) * (1 << left_shift), in2_multiplier, in2_shift);
                    int32_t v = aot_multiply_by_quantized_multiplier(sa - sb, out_multiplier, out_shift) +
                                output_offset;
                    v = v < act_min ? act_min : v;
                    v = v > act_max ? act_max : v;
                    output[o++] = (int8_t)v;
                }
            }
        }
    }
}
