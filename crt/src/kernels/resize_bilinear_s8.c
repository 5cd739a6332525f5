/* int8 RESIZE_BILINEAR (aot/kernels/resize_bilinear.h). */
#include "aot/kernels/resize_bilinear.h"

void aot_resize_bilinear_s8(const int8_t* input, int8_t* output, int32_t batches, int32_t in_h, int32_t in_w,
                            int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* row_w,
                            const int32_t* cols, const int32_t* col_w)
{
    int32_t b, y, x, c;
    for (b = 0; b < batches; b++) {
        const int8_t* image = input + b * in_h * in_w * depth;
        for (y = 0; y < out_h; y++) {
            const int8_t* r0 = image + rows[2 * y] * in_w * depth;
            const int8_t* r1 = image + rows[2 * y + 1] * in_w * depth;
            const int64_t wy0 = row_w[2 * y], wy1 = row_w[2 * y + 1];
            for (x = 0; x < out_w; x++) {
                const int32_t c0 = cols[2 * x] * depth, c1 = cols[2 * x + 1] * depth;
                const int64_t wx0 = col_w[2 * x], wx1 = col_w[2 * x + 1];
                for (c = 0; c < depth; c++) {
                    const int64_t sum = r0[c0 + c] * wy0 * wx0 + r1[c0 + c] * wy1 * wx0 + r0[c1 + c] * wy0 * wx1 +
                                        r1[c1 + c] * wy1 * wx1;
                    const int64_t round = sum > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19);
                    *output++ = (int8_t)((sum + round) / ((int64_t)1 << 20));
                }
            }
        }
    }
}
