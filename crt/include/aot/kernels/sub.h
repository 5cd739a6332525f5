/* Element-wise subtraction (in1 - in2) with up to 4-D broadcasting; same conventions as aot/kernels/add.h
 * (int8, int16: TFLite's SUB, i.e. ADD's two-stage rescale with the second input subtracted). */
#ifndef AOT_KERNELS_SUB_H_
#define AOT_KERNELS_SUB_H_

#include <stdint.h>

#include "aot/kernels/add.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same-shape form: struct aot_add_s8_params as for aot_add_s8_elementwise, second input subtracted. */
void aot_sub_s8_elementwise(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size,
                            const struct aot_add_s8_params* params);

/* The row form of aot_add_s8_rows (and its Helium kernel), second input subtracted. */
void aot_sub_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params);
void aot_sub_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params);

void aot_sub_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims, const int32_t* in1_strides,
                const int32_t* in2_strides, int32_t in1_offset, int32_t in1_multiplier, int32_t in1_shift,
                int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_sub_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                 const int32_t* in1_strides, const int32_t* in2_strides, int32_t in1_offset, int32_t in1_multiplier,
                 int32_t in1_shift, int32_t in2_offset, int32_t in2_multiplier, int32_t in2_shift, int32_t left_shift,
                 int32_t out_multiplier, int32_t out_shift, int32_t output_offset, int32_t act_min, int32_t act_max);

void aot_sub_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max);

#ifdef __cplusplus
}
#endif

#endif
