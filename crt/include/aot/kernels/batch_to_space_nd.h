/* BATCH_TO_SPACE_ND with crops: input [N, H, W, C] (a 3-D NHC input has W = 1), block [bh, bw], output
 * [N / (bh * bw), OH, OW, C].  Input batch b goes to output batch b % (N / (bh * bw)) at block phase
 * (b / (N / (bh * bw))) / bw, % bw; pixel (h, w) lands on output row h * bh + phase_h - crop_top and column
 * w * bw + phase_w - crop_left, and is dropped when that falls outside the output (TFLite Micro's reference order).
 * in_dims = {N, H, W, C}, out_dims = {N', OH, OW}, block_crop = {bh, bw, crop_top, crop_left}; elem_size 1, 2 or
 * 4 bytes (data only moves). */
#ifndef AOT_KERNELS_BATCH_TO_SPACE_ND_H_
#define AOT_KERNELS_BATCH_TO_SPACE_ND_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_batch_to_space_nd(const void* input, void* output, int32_t elem_size, const int32_t* in_dims,
                           const int32_t* out_dims, const int32_t* block_crop);

#ifdef __cplusplus
}
#endif

#endif
