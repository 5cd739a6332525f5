/* SPACE_TO_BATCH_ND with paddings (aot/kernels/space_to_batch_nd.h): one depth vector copy or fill per output pixel. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/space_to_batch_nd.h"

void aot_space_to_batch_nd(const void* input, void* output, int32_t elem_size, const int32_t* in_dims,
                           const int32_t* out_dims, const int32_t* block_pad, int32_t pad_byte)
{
    const int32_t n = in_dims[0], h = in_dims[1], w = in_dims[2];
    const int32_t on = out_dims[0], oh = out_dims[1], ow = out_dims[2];
    const int32_t bh = block_pad[0], bw = block_pad[1], top = block_pad[2], left = block_pad[3];
    const size_t depth_bytes = (size_t)in_dims[3] * (size_t)elem_size;
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    int32_t ob, oy, ox;

    for (ob = 0; ob < on; ob++) {
        const int32_t b = ob % n, phase = ob / n;
        for (oy = 0; oy < oh; oy++) {
            const int32_t y = oy * bh + phase / bw - top;
            for (ox = 0; ox < ow; ox++) {
                const int32_t x = ox * bw + phase % bw - left;
                if (y < 0 || y >= h || x < 0 || x >= w) {
                    memset(out, pad_byte, depth_bytes);
                } else {
                    memcpy(out, in + (size_t)((b * h + y) * w + x) * depth_bytes, depth_bytes);
                }
                out += depth_bytes;
            }
        }
    }
}
