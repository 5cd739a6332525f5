/* Private: the loop of the int8 RESIZE_BILINEAR kernels (aot/kernels/resize_bilinear.h) around a per-pixel
 * function that blends the depth values of four source pixels with four weights. */
#ifndef AOT_KERNELS_RESIZE_BILINEAR_BODY_H_
#define AOT_KERNELS_RESIZE_BILINEAR_BODY_H_

#include <stdint.h>
#include <string.h>

/* (sum + 2^19) / 2^20 for sum > 0, (sum - 2^19) / 2^20 for sum <= 0, C division: adding -1 to negative sums
 * turns the floor of the arithmetic shift into TFLite's rounding half away from zero. */
static inline int8_t aot_resize_round20(int32_t sum)
{
    return (int8_t)((sum + (sum >> 31) + (1 << 19)) >> 20);
}

typedef void (*aot_resize_blend_fn)(const int8_t* p00, const int8_t* p10, const int8_t* p01, const int8_t* p11,
                                    int32_t w00, int32_t w10, int32_t w01, int32_t w11, int8_t* out, int32_t depth);

static inline void aot_resize_bilinear_walk(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes,
                                            int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows,
                                            const int16_t* row_w, const int32_t* cols, const int16_t* col_w,
                                            aot_resize_blend_fn blend)
{
    const int32_t row_bytes = out_w * depth;
    int32_t b, y, x;
    for (b = 0; b < batches; b++) {
        const int8_t* image = input + b * image_bytes;
        for (y = 0; y < out_h; y++) {
            const int8_t* r0 = image + rows[2 * y];
            const int8_t* r1 = image + rows[2 * y + 1];
            const int32_t wy1 = row_w[y], wy0 = 1024 - wy1;
            if (y > 0 && rows[2 * y] == rows[2 * y - 2] && rows[2 * y + 1] == rows[2 * y - 1] && wy1 == row_w[y - 1]) {
                memcpy(output, output - row_bytes, (size_t)row_bytes);
                output += row_bytes;
                continue;
            }
            for (x = 0; x < out_w; x++) {
                const int32_t c0 = cols[2 * x], c1 = cols[2 * x + 1];
                const int32_t wx1 = col_w[x], wx0 = 1024 - wx1;
                blend(r0 + c0, r1 + c0, r0 + c1, r1 + c1, wy0 * wx0, wy1 * wx0, wy0 * wx1, wy1 * wx1, output, depth);
                output += depth;
            }
        }
    }
}

#endif
