/* Element-wise addition with up to 4-D broadcasting.
 *
 * dims[4] is the output shape (left-padded with 1s); in1_strides/in2_strides
 * give each input's element stride per output dimension (0 = broadcast).
 * int8 and int16 follow TFLite: inputs are offset, shifted left by left_shift
 * (20 for int8, 15 for int16), rescaled to a common scale, summed and
 * requantized; all multipliers are precomputed.
 *
 * aot_add_s8_elementwise is the same arithmetic for inputs of the output's shape (no broadcast) in a short form
 * that the compiler proves exact for the op (crt/src/kernels/add_s8_elem.h says how); the convolutions use the
 * same parameters for a residual ADD fused into them (aot/kernels/conv2d.h).  */
#ifndef AOT_KERNELS_ADD_H_
#define AOT_KERNELS_ADD_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of the short int8 ADD / SUB form, computed and range-checked by the compiler (compiler/ops/add.py).
 * Input k: (x * 2^20 + ink_bias / 2) (ink_bias is the input offset times 2^21: TFLite's left shift by 20, doubled
 * for the rounding doubling multiply), times ink_multiplier (Q0.31) with rounding, then shifted right by
 * ink_shift >= 1 with ink_add = 2^(ink_shift - 1) as the rounding constant.
 * Output: the sum (difference) times out_multiplier, shifted right by out_shift >= 1 after adding out_add =
 * 2^(out_shift - 1) + output_offset * 2^out_shift, and clamped to [act_min, act_max].  The output may overwrite
 * an input: every input element is read just before the output element of the same index is stored. */
struct aot_add_s8_params {
    int32_t in1_bias;
    int32_t in1_multiplier;
    int32_t in1_add;
    int32_t in1_shift;
    int32_t in2_bias;
    int32_t in2_multiplier;
    int32_t in2_add;
    int32_t in2_shift;
    int32_t out_multiplier;
    int32_t out_add;
    int32_t out_shift;
    int32_t act_min;
    int32_t act_max;
};

void aot_add_s8_elementwise(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size,
                            const struct aot_add_s8_params* params);

/* The row form (crt/src/kernels/add_s8_rows.c): the output as `rows` rows of `cols` elements; input k's row starts
 * `row_step_k` elements after the previous row's; mode 0: both inputs run along the row, 1: in2 holds one value
 * per row, 2: in1 holds one value per row.  Same parameters as aot_add_s8_elementwise.  The _mve form is the
 * Helium kernel (the portable one where the core has no MVE). */
void aot_add_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params);
void aot_add_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params);

void aot_add_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims, const int32_t* in1_strides,
                const int32_t* in2_strides, int32_t in1_offset, int32_t in1_multiplier, int32_t in1_shift,
                int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_add_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset, int32_t in1_multiplier,
                 int32_t in1_shift, int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                 int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_add_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
