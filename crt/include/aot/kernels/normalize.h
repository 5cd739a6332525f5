/* Row-wise normalizations over the last dimension (rows x depth), TFLite Micro's reference arithmetic.
 * float32 LOG_SOFTMAX: x - max - log(sum(exp(x - max)));
 * float32 L2_NORMALIZATION: x / max(sqrt(sum(x * x)), 1e-6).
 * int8: TFLite Micro's fixed-point forms (crt/src/kernels/log_softmax_s8.c, l2_normalization_s8.c), whose outputs
 * have fixed quantization (LOG_SOFTMAX 16/256 and zero point 127, L2_NORMALIZATION 1/128 and 0).  */
#ifndef AOT_KERNELS_NORMALIZE_H_
#define AOT_KERNELS_NORMALIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_log_softmax_f32(const float* input, float* output, int32_t rows, int32_t depth);
void aot_l2_normalization_f32(const float* input, float* output, int32_t rows, int32_t depth);

/* Compile-time constants of an int8 LOG_SOFTMAX (TFLite's PreprocessLogSoftmaxScalingExp): the Q0.31 multiplier
 * and left shift taking input differences to Q5.26, the reverse rescaling (multiplier and right-shift exponent,
 * <= 0) and the smallest difference that contributes. */
struct aot_log_softmax_s8_params {
    int32_t input_multiplier;
    int32_t input_left_shift;
    int32_t reverse_scaling_divisor;
    int32_t reverse_scaling_shift;
    int32_t diff_min;
};

void aot_log_softmax_s8(const int8_t* input, int8_t* output, int32_t rows, int32_t depth,
                        const struct aot_log_softmax_s8_params* params);
void aot_l2_normalization_s8(const int8_t* input, int8_t* output, int32_t rows, int32_t depth,
                             int32_t input_zero_point);

#ifdef __cplusplus
}
#endif

#endif
