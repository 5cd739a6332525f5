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

/* The short int8 form (compiler/ops/common/mul_s8_fast.py proves it exact for the op before choosing it):
 *     x2 = (q1 + in1_offset) * (q2 + in2_offset) << left_shift          (the product, doubled)
 *     out = clamp(((add + ((x2 >> 31) & sign_mask) + round(x2 * multiplier / 2^32)) >> right_shift) + out_offset)
 */
struct aot_mul_s8_params {
    int32_t in1_offset;
    int32_t in2_offset;
    int32_t left_shift;
    int32_t multiplier;
    int32_t add;
    int32_t sign_mask;
    int32_t right_shift;
    int32_t out_offset;
    int32_t act_min;
    int32_t act_max;
};

/* In the row form of aot_add_s8_rows (aot/kernels/add.h): the output as rows x cols, input k's row start advancing
 * by row_step_k; mode 0: both inputs run along the row, 1: in2 holds one value per row, 2: in1 does.  The _mve
 * form is the Helium kernel (the portable one on a core without MVE). */
void aot_mul_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params);
void aot_mul_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params);

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
