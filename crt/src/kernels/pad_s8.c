/* int8 constant padding (reference loop over the output). */
#include "aot/kernels/pad.h"

void aot_pad_s8(const int8_t* input, int8_t* output, const int32_t* in_dims,
                const int32_t* out_dims, const int32_t* pad_before, int32_t pad_value)
{
    const int8_t fill = (int8_t)pad_value;
    int32_t o0, o1, o2, o3;
    int32_t o = 0;
    for (o0 = 0; o0 < out_dims[0]; o0++) {
        const int32_t i0 = o0 - pad_before[0];
        const int32_t in0 = i0 >= 0 && i0 < in_dims[0];
        for (o1 = 0; o1 < out_dims[1]; o1++) {
            const int32_t i1 = o1 - pad_before[1];
            const int32_t in1 = in0 && i1 >= 0 && i1 < in_dims[1];
            for (o2 = 0; o2 < out_dims[2]; o2++) {
                const int32_t i2 = o2 - pad_before[2];
                const int32_t in2 = in1 && i2 >= 0 && i2 < in_dims[2];
                const int32_t row = in2 ? ((i0 * in_dims[1] + i1) * in_dims[2] + i2) * in_dims[3] : 0;
                for (o3 = 0; o3 < out_dims[3]; o3++) {
                    const int32_t i3 = o3 - pad_before[3];
                    output[o++] = (in2 && i3 >= 0 && i3 < in_dims[3]) ? input[row + i3] : fill;
                }
            }
        }
    }
}
