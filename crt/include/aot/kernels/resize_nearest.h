/* RESIZE_NEAREST_NEIGHBOR on NHWC data: output pixel (y, x) copies input pixel (rows[y], cols[x]), the source indices
 * computed at compile time exactly as TFLite Micro computes them (align_corners, half_pixel_centers) and stored as
 * byte offsets: rows[y] of the source row inside one image, cols[x] of the source pixel inside a row.  Any element
 * size, since values are only copied: pixels of a multiple of 4 bytes move as words, others with memcpy; an output
 * row whose source row is the previous output row's is one copy of that row.  */
#ifndef AOT_KERNELS_RESIZE_NEAREST_H_
#define AOT_KERNELS_RESIZE_NEAREST_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_resize_nearest(const void* input, void* output, int32_t batches, int32_t image_bytes, int32_t pixel_bytes,
                        int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* cols);

#ifdef __cplusplus
}
#endif

#endif
