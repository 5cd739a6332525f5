/* ONNX Pow with integer operands (compiler/ops/pow_int32.py), broadcast as aot/kernels/binary.h (dims[4] the
 * output shape, per-input element strides, 0 = broadcast).  The results are onnxruntime's, which computes
 * pow() in double and converts: an int32 result outside the int32 range (or NaN, or the infinity of 0 to a
 * negative power) is INT32_MIN, as x86-64's conversion gives it; otherwise it is truncated toward zero.
 *
 * aot_pow_s32:     int32 base, int32 exponent, int32 result, computed exactly in integers (the double result
 *                  of an integer power inside the int32 range is exact, so the two agree).
 * aot_pow_s32_f32: int32 base, float32 exponent, int32 result: pow() in double, then the conversion above.
 * aot_pow_f32_s32: float32 base, int32 exponent, float32 result: pow() in double, rounded once to float.
 * single_exponent (the exponent tensor has one element): an exponent of 2 or 3 is x * x or x * x * x instead,
 * wrapping in int32 (onnxruntime's shortcut, which gives e.g. 46341 ** 2 = -2147479015, not INT32_MIN). */
#ifndef AOT_KERNELS_POW_INT_H_
#define AOT_KERNELS_POW_INT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_pow_s32(const int32_t* base, const int32_t* exponent, int32_t* output, const int32_t* dims,
                 const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent);
void aot_pow_s32_f32(const int32_t* base, const float* exponent, int32_t* output, const int32_t* dims,
                     const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent);
void aot_pow_f32_s32(const float* base, const int32_t* exponent, float* output, const int32_t* dims,
                     const int32_t* base_strides, const int32_t* exponent_strides, int32_t single_exponent);

#ifdef __cplusplus
}
#endif

#endif
