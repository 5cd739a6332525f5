/* Element-wise division (in1 / in2) with up to 4-D broadcasting; conventions as aot/kernels/add.h.
 * float32: IEEE division.  int8: TFLite Micro's quantized DIV (crt/src/kernels/div_s8.c says how it rounds). */
#ifndef AOT_KERNELS_DIV_H_
#define AOT_KERNELS_DIV_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_div_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                 const int32_t* in2_strides, float act_min, float act_max);

/* The compile-time constants of an int8 DIV: input zero points, the output zero point, the Q0.31 multiplier and
 * exponent of input1_scale / (input2_scale * output_scale), and the fused activation's bounds. */
struct aot_div_s8_params {
    int32_t input1_zero_point;
    int32_t input2_zero_point;
    int32_t output_zero_point;
    int32_t multiplier;
    int32_t shift;
    int32_t act_min;
    int32_t act_max;
};

void aot_div_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims, const int32_t* in1_strides,
                const int32_t* in2_strides, const struct aot_div_s8_params* params);

#ifdef __cplusplus
}
#endif

#endif
