/* float32 mean: sum in input order, then divide by the element count. */
#include "aot_sched.h"

#include "aot/kernels/mean.h"

void aot_mean_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* reduced)
{
    int32_t od[4], rd[4];
    int32_t d, o0, o1, o2, o3, r0, r1, r2, r3;
    int32_t count = 1;
    int32_t o = 0;
    for (d = 0; d < 4; d++) {
        od[d] = reduced[d] ? 1 : in_dims[d];
        rd[d] = reduced[d] ? in_dims[d] : 1;
        count *= rd[d];
    }
    for (o0 = 0; o0 < od[0]; o0++) {
        for (o1 = 0; o1 < od[1]; o1++) {
            for (o2 = 0; o2 < od[2]; o2++) {
                for (o3 = 0; o3 < od[3]; o3++) {
                    float acc = 0.0f;
                    for (r0 = 0; r0 < rd[0]; r0++) {
                        for (r1 = 0; r1 < rd[1]; r1++) {
                            for (r2 = 0; r2 < rd[2]; r2++) {
                                const int32_t row =
                                    (((o0 + r0) * in_dims[1] + (o1 + r1)) * in_dims[2] + (o2 + r2)) * in_dims[3];
                                for (r3 = 0; r3 < rd[3]; r3++) {
                                    acc += input[row + o3 + r3];
                                }
                            }
                        }
                    }
                    output[o++] = acc / (float)count;
                }
            }
        }
    }
}
