/* int8 RESIZE_BILINEAR in TFLite Micro's 10-bit fixed point.  The compiler computes TFLite's source rows, columns
 * and weights (in 1/1024) and stores, per output row y, the byte offsets of its two source rows inside one image
 * (rows[2y], rows[2y+1]) and the weight of the second (row_w[y], in [0, 1023]; the first weighs 1024 - row_w[y]);
 * likewise per output column the byte offsets of its two source pixels inside a row (cols) and the second's weight
 * (col_w).  A source row that TFLite reads twice with weights (1024 - f, f) is stored once with weight 0 (same
 * sum).  Each output value is the sum of the four products of an input value with a product of two weights,
 * divided by 2^20 rounding half away from zero: every sum fits 28 bits, so 32-bit arithmetic is exact (TFLite
 * sums in 64 bits).  An output row whose two source rows and weight equal the previous row's is a copy of it. */
#ifndef AOT_KERNELS_RESIZE_BILINEAR_H_
#define AOT_KERNELS_RESIZE_BILINEAR_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Portable: one channel at a time. */
void aot_resize_bilinear_s8(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes, int32_t depth,
                            int32_t out_h, int32_t out_w, const int32_t* rows, const int16_t* row_w,
                            const int32_t* cols, const int16_t* col_w);

/* Helium (Cortex-M55): four channels per vector in 32-bit lanes, the depth % 4 last ones predicated; the portable
 * kernel elsewhere. */
void aot_resize_bilinear_s8_mve(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes,
                                int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int16_t* row_w,
                                const int32_t* cols, const int16_t* col_w);

#ifdef __cplusplus
}
#endif

#endif
