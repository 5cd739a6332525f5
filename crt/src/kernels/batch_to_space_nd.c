/* BATCH_TO_SPACE_ND with crops (aot/kernels/batch_to_space_nd.h): one depth vector copy per kept input pixel. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/batch_to_space_nd.h"

void aot_batch_to_space_nd(const void* input, void* output, int32_t elem_size, const int32_t* in_dims,
                           const int32_t* out_dims, const int32_t* block_crop)
{
    const int32_t n = in_dims[0], h = in_dims[1], w = in_dims[2];
    const int32_t on = out_dims[0], oh = out_dims[1], ow = out_dims[2];
    const int32_t bh = block_crop[0], bw = block_crop[1], top = block_crop[2], left = block_crop[3];
    const int32_t depth_bytes = in_dims[3] * elem_size;
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    int32_t b, y, x;

    for (b = 0; b < n; b++) {
        const int32_t ob = b % on, phase = b / on;
        for (y = 0; y < h; y++) {
            const int32_t oy = y * bh + phase / bw - top;
            const uint8_t* src = in + (size_t)((b * h + y) * w) * (size_t)depth_bytes;
            if (oy < 0 || oy >= oh) {
                continue;
            }
            for (x = 0; x < w; x++) {
                const int32_t ox = x * bw + phase % bw - left;
                if (ox >= 0 && ox < ow) {
                    memcpy(out + (size_t)((ob * oh + oy) * ow + ox) * (size_t)depth_bytes, src, (size_t)depth_bytes);
                }
                src += depth_bytes;
            }
        }
    }
}
