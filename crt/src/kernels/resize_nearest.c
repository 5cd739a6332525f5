/* RESIZE_NEAREST_NEIGHBOR (aot/kernels/resize_nearest.h): pixel copies, repeated rows copied whole. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/resize_nearest.h"

/* words >= 1 words of 4 bytes, any alignment (memcpy of 4 bytes is one LDR / STR where unaligned access is
 * allowed, bytes on the Cortex-M0). */
static inline void copy_words(uint8_t* dst, const uint8_t* src, int32_t words)
{
    do {
        uint32_t w;
        memcpy(&w, src, 4);
        memcpy(dst, &w, 4);
        src += 4;
        dst += 4;
    } while (--words > 0);
}

void aot_resize_nearest(const void* input, void* output, int32_t batches, int32_t image_bytes, int32_t pixel_bytes,
                        int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* cols)
{
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    const int32_t row_bytes = out_w * pixel_bytes;
    int32_t b, y, x;
    for (b = 0; b < batches; b++) {
        const uint8_t* image = in + b * image_bytes;
        for (y = 0; y < out_h; y++) {
            const uint8_t* row = image + rows[y];
            if (y > 0 && rows[y] == rows[y - 1]) {
                memcpy(out, out - row_bytes, (size_t)row_bytes);
            } else if ((pixel_bytes & 3) == 0) {
                for (x = 0; x < out_w; x++) {
                    copy_words(out + x * pixel_bytes, row + cols[x], pixel_bytes >> 2);
                }
            } else if (pixel_bytes == 1) {
                for (x = 0; x < out_w; x++) {
                    out[x] = row[cols[x]];
                }
            } else {
                for (x = 0; x < out_w; x++) {
                    memcpy(out + x * pixel_bytes, row + cols[x], (size_t)pixel_bytes);
                }
            }
            out += row_bytes;
        }
    }
}
