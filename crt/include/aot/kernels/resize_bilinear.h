/* int8 RESIZE_BILINEAR in TFLite Micro's 10-bit fixed point: for output pixel (y, x) the rows rows[2y], rows[2y+1]
 * with weights row_w[2y], row_w[2y+1] (in 1/1024, computed at compile time; they can leave [0, 1024] with
 * half-pixel centers, as in TFLite), likewise the columns; the four products are summed in 64 bits and divided by
 * 2^20 rounding half away from zero.  */
#ifndef AOT_KERNELS_RESIZE_BILINEAR_H_
#define AOT_KERNELS_RESIZE_BILINEAR_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_resize_bilinear_s8(const int8_t* input, int8_t* output, int32_t batches, int32_t in_h, int32_t in_w,
                            int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int32_t* row_w,
                            const int32_t* cols, const int32_t* col_w);

#ifdef __cplusplus
}
#endif

#endif
