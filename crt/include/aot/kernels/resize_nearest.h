/* RESIZE_NEAREST_NEIGHBOR on NHWC data: output pixel (y, x) copies input pixel (rows[y], cols[x]), the index tables
 * computed at compile time exactly as TFLite Micro computes them (align_corners, half_pixel_centers); any element
 * size, since values are only copied.  */
#ifndef AOT_KERNELS_RESIZE_NEAREST_H_
#define AOT_KERNELS_RESIZE_NEAREST_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_resize_nearest(const void* input, void* output, int32_t elem_size, int32_t batches, int32_t in_h, int32_t in_w,
                        int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* cols);

#ifdef __cplusplus
}
#endif

#endif
