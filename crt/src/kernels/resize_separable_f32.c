/* RESIZE_SEPARABLE (aot/kernels/resize_separable.h). dims: outer, in_h, in_w, inner, out_h, out_w, kh, kw. */
#include "aot_sched.h"

#include "aot/kernels/resize_separable.h"

void aot_resize_separable_f32(const float* input, float* output, const int32_t* dims, const int32_t* row_at,
                              const float* row_w, const int32_t* col_at, const float* col_w)
{
    const int32_t outer = dims[0], in_h = dims[1], in_w = dims[2], inner = dims[3];
    const int32_t out_h = dims[4], out_w = dims[5], kh = dims[6], kw = dims[7];
    int32_t o, y, x, i, a, b;
    for (o = 0; o < outer; o++) {
        const float* plane = input + o * in_h * in_w * inner;
        for (y = 0; y < out_h; y++) {
            for (x = 0; x < out_w; x++) {
                for (i = 0; i < inner; i++) {
                    float acc = 0.0f;
                    for (a = 0; a < kh; a++) {
                        const float* row = plane + row_at[y * kh + a] * in_w * inner + i;
                        float racc = 0.0f;
                        for (b = 0; b < kw; b++) {
                            racc += col_w[x * kw + b] * row[col_at[x * kw + b] * inner];
                        }
                        acc += row_w[y * kh + a] * racc;
                    }
                    *output++ = acc;
                }
            }
        }
    }
}
