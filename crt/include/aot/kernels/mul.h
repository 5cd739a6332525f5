/* Element-wise multiplication with up to 4-D broadcasting.
 *
 * dims[4] is the output shape (left-padded with 1s); in1_strides/in2_strides
 * give each input's element stride per output dimension (0 = broadcast).
 * int8 follows TFLite: (q1 + offset1) * (q2 + offset2) is requantized with a
 * single multiplier for s1 * s2 / s_out, then offset and clamped to the fused
 * activation range.  All parameters are computed at compile time.  */
#ifndef AOT_KERNELS_MUL_H_
#define AOT_KERNELS_MUL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_mul_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims, const int32_t* in1_strides,
                const int32_t* in2_strides, int32_t in1_offset, int32_t in2_offset, int32_t out_multiplier,
                int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_mul_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset, int32_t in2_offset,
                 int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_mul_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
