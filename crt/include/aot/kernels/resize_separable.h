/* RESIZE_SEPARABLE (ONNX Resize / Upsample, float32): every output value is a weighted sum over a few input rows
 * times a few input columns: out[o, y, x, i] = sum_a row_w[y*kh + a] * sum_b col_w[x*kw + b] *
 * in[o, row_at[y*kh + a], col_at[x*kw + b], i], the data seen as [outer, height, width, inner] (NCHW: inner 1;
 * NHWC: outer = batches, inner = channels). The taps are computed at compile time for the node's mode
 * (nearest, linear, cubic, antialiased) and coordinate transformation.  */
#ifndef AOT_KERNELS_RESIZE_SEPARABLE_H_
#define AOT_KERNELS_RESIZE_SEPARABLE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_resize_separable_f32(const float* input, float* output, const int32_t* dims, const int32_t* row_at,
                              const float* row_w, const int32_t* col_at, const float* col_w);

#ifdef __cplusplus
}
#endif

#endif
