/* float32 PRELU: x >= 0 ? x : alpha * x, alpha broadcast to the input (4-D conventions of aot/kernels/add.h,
 * in1 = input, in2 = alpha). */
#ifndef AOT_KERNELS_PRELU_H_
#define AOT_KERNELS_PRELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_prelu_f32(const float* in1, const float* in2, float* output, const int32_t* dims, const int32_t* in1_strides,
                   const int32_t* in2_strides);

/* int8 PRELU as TFLite Micro: x - zp_in >= 0 ? that * (s_in / s_out) : that * (alpha - zp_alpha) * (s_in s_alpha /
 * s_out), each a quantized multiplier, plus the output zero point, saturated. */
struct aot_prelu_s8_params {
    int32_t input_offset, alpha_offset, output_offset;
    int32_t multiplier1, shift1, multiplier2, shift2;
};

void aot_prelu_s8(const int8_t* input, const int8_t* alpha, int8_t* output, const int32_t* dims,
                  const int32_t* in_strides, const int32_t* alpha_strides, const struct aot_prelu_s8_params* p);

#ifdef __cplusplus
}
#endif

#endif
