/* Element-wise unary math: ABS, NEG, SQRT, RSQRT, EXP, LOG, SQUARE, SIN, COS, FLOOR, CEIL, ROUND, ELU, ERF,
 * SOFTPLUS.
 *
 * float32 follows TFLite Micro's reference kernels (the C library's functions; ROUND rounds half to even).
 * ABS also takes int8 and int16 as TFLite Micro does: |x - input zero point|, rescaled to the output scale with
 * a quantized multiplier only when the two scales differ, plus the output zero point, saturated.  */
#ifndef AOT_KERNELS_UNARY_H_
#define AOT_KERNELS_UNARY_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_abs_f32(const float* input, float* output, int32_t size);
void aot_neg_f32(const float* input, float* output, int32_t size);
void aot_sqrt_f32(const float* input, float* output, int32_t size);
void aot_rsqrt_f32(const float* input, float* output, int32_t size);
/* int8 RSQRT as TFLite Micro computes it (crt/src/kernels/rsqrt_s8.c); multiplier and shift quantize
 * 1 / (sqrt(input_scale) * output_scale). */
void aot_rsqrt_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point,
                  int32_t output_zero_point, int32_t multiplier, int32_t shift);
void aot_exp_f32(const float* input, float* output, int32_t size);
void aot_log_f32(const float* input, float* output, int32_t size);
void aot_square_f32(const float* input, float* output, int32_t size);
void aot_sin_f32(const float* input, float* output, int32_t size);
void aot_cos_f32(const float* input, float* output, int32_t size);
void aot_floor_f32(const float* input, float* output, int32_t size);
void aot_ceil_f32(const float* input, float* output, int32_t size);
void aot_round_f32(const float* input, float* output, int32_t size);
/* ELU: x < 0 ? exp(x) - 1 : x (TFLite Micro's float form; int8 goes through aot/kernels/lut.h). */
void aot_elu_f32(const float* input, float* output, int32_t size);
/* ERF and SOFTPLUS (ONNX Erf, Softplus, Gelu): erff(x); log(1 + exp(x)), which is x itself to float precision
 * above 20 (where exp(x) would overflow for large x). */
void aot_erf_f32(const float* input, float* output, int32_t size);
void aot_softplus_f32(const float* input, float* output, int32_t size);

/* rescale 0: the scales are equal and multiplier/shift are unused. */
void aot_abs_s8(const int8_t* input, int8_t* output, int32_t size, int32_t input_zero_point, int32_t output_zero_point,
                int32_t rescale, int32_t multiplier, int32_t shift);
void aot_abs_s16(const int16_t* input, int16_t* output, int32_t size, int32_t rescale, int32_t multiplier,
                 int32_t shift);

#ifdef __cplusplus
}
#endif

#endif
