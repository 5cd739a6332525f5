/* Average and max pooling over NHWC tensors.
 *
 * Only in-image taps are counted (TFLite semantics); the int8 / int16 average
 * rounds half away from zero.  Activation bounds are already in output units.  */
#ifndef AOT_KERNELS_POOLING_H_
#define AOT_KERNELS_POOLING_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int32_t aot_avg_pool_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                        int8_t* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                        int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                        int32_t act_max);

/* aot_avg_pool_s8 for cores with Helium (MVE) (portable fallback elsewhere): the same results, window sums
 * vectorised across channels. */
int32_t aot_avg_pool_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                            int8_t* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                            int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                            int32_t act_max);

int32_t aot_avg_pool_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                         int16_t* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                         int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                         int32_t act_max);

int32_t aot_avg_pool_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                         float* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                         int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, float act_min,
                         float act_max);

/* L2_POOL_2D (float32): sqrt(mean of squares) over each window's in-image part. */
int32_t aot_l2_pool_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                        float* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                        int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, float act_min,
                        float act_max);

void aot_max_pool_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels, int8_t* output,
                     int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w, int32_t stride_h,
                     int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min, int32_t act_max);

void aot_max_pool_s16(const int16_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels,
                      int16_t* output, int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w,
                      int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left, int32_t act_min,
                      int32_t act_max);

void aot_max_pool_f32(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t channels, float* output,
                      int32_t out_h, int32_t out_w, int32_t filter_h, int32_t filter_w, int32_t stride_h,
                      int32_t stride_w, int32_t pad_top, int32_t pad_left, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
