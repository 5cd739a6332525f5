/* RESIZE_NEAREST_NEIGHBOR (aot/kernels/resize_nearest.h): one pixel copy per output pixel. */
#include <string.h>

#include "aot/kernels/resize_nearest.h"

void aot_resize_nearest(const void* input, void* output, int32_t elem_size, int32_t batches, int32_t in_h, int32_t in_w,
                        int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* cols)
{
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    const size_t pixel = (size_t)depth * (size_t)elem_size;
    int32_t b, y, x;
    for (b = 0; b < batches; b++) {
        const uint8_t* image = in + (size_t)b * (size_t)in_h * (size_t)in_w * pixel;
        for (y = 0; y < out_h; y++) {
            const uint8_t* row = image + (size_t)rows[y] * (size_t)in_w * pixel;
            for (x = 0; x < out_w; x++) {
                memcpy(out, row + (size_t)cols[x] * pixel, pixel);
                out += pixel;
            }
        }
    }
}
