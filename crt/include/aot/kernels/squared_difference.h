/* SQUARED_DIFFERENCE (x - y)^2 with up to 4-D broadcasting (dims / strides as in aot/kernels/binary.h).
 *
 * int8 / int16 follow TFLite Micro: each input, less its zero point and shifted left (7 bits for int8, none for
 * int16), is scaled by its share of twice the larger input scale (multipliers below one), the difference is
 * squared in 32 bits, requantized to the output and saturated.  int32 wraps like two's-complement arithmetic.  */
#ifndef AOT_KERNELS_SQUARED_DIFFERENCE_H_
#define AOT_KERNELS_SQUARED_DIFFERENCE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct aot_squared_difference_params {
    int32_t offset1, multiplier1, shift1;
    int32_t offset2, multiplier2, shift2;
    int32_t left_shift, out_multiplier, out_shift, out_offset;
};

void aot_squared_difference_f32(const float* in1, const float* in2, float* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides);
void aot_squared_difference_s32(const int32_t* in1, const int32_t* in2, int32_t* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides);
void aot_squared_difference_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims,
                               const int32_t* in1_strides, const int32_t* in2_strides,
                               const struct aot_squared_difference_params* p);
void aot_squared_difference_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides,
                                const struct aot_squared_difference_params* p);

#ifdef __cplusplus
}
#endif

#endif
