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

/* The short int8 form (compiler/ops/common/sqd_s8_fast.py proves it exact for the op before choosing it): each of the
 * three requantizations as (add + ((x2 >> 31) & mask) + round(x2 * multiplier / 2^32)) >> shift, x2 = x << left. */
struct aot_squared_difference_s8_params {
    int32_t in1_offset, in1_left, in1_multiplier, in1_add, in1_mask, in1_shift;
    int32_t in2_offset, in2_left, in2_multiplier, in2_add, in2_mask, in2_shift;
    int32_t out_left, out_multiplier, out_add, out_mask, out_shift, out_offset;
};

/* In the row form of aot_add_s8_rows (aot/kernels/add.h); the _mve form is the Helium kernel (the portable one on
 * a core without MVE). */
void aot_squared_difference_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                    int32_t row_step1, int32_t row_step2, int32_t mode,
                                    const struct aot_squared_difference_s8_params* params);
void aot_squared_difference_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows,
                                        int32_t cols, int32_t row_step1, int32_t row_step2, int32_t mode,
                                        const struct aot_squared_difference_s8_params* params);

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
