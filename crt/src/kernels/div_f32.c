/* float32 element-wise division with broadcasting (IEEE semantics: x/0 is inf or NaN). */
#include "aot/kernels/div.h"

void aot_div_f32(const float* in1, const float* in2, float* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, float act_min,
                 float act_max)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int32_t base1 = i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int32_t base2 = i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    const float a = in1[base1 + i3 * in1_strides[3]];
                    const float b = in2[base2 + i3 * in2_strides[3]];
                    float v = a / b;
                    v = v < act_min ? act_min : v;
                    v = v > act_max ? act_max : v;
                    output[o++] = v;
                }
            }
        }
    }
}
