/* SPACE_TO_BATCH_ND with paddings: input [N, H, W, C] (a 3-D NHC input has W = 1), block [bh, bw], output
 * [N * bh * bw, OH, OW, C] with OH = (pad_top + H + pad_bottom) / bh, OW likewise.  Output batch ob reads input
 * batch ob % N at block phase (ob / N) / bw, % bw; output pixel (oy, ox) takes input row oy * bh + phase_h - pad_top
 * and column ox * bw + phase_w - pad_left, or the pad value where that lies in the padding (TFLite Micro's
 * reference order).  in_dims = {N, H, W, C}, out_dims = {N', OH, OW}, block_pad = {bh, bw, pad_top, pad_left};
 * pad_byte fills each padded element's bytes (the output zero point for int8, 0 otherwise); elem_size 1, 2 or 4. */
#ifndef AOT_KERNELS_SPACE_TO_BATCH_ND_H_
#define AOT_KERNELS_SPACE_TO_BATCH_ND_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_space_to_batch_nd(const void* input, void* output, int32_t elem_size, const int32_t* in_dims,
                           const int32_t* out_dims, const int32_t* block_pad, int32_t pad_byte);

#ifdef __cplusplus
}
#endif

#endif
