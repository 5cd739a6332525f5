/* QUANTIZE_ONNX: float32 -> int8 with ONNX's rounding (round half to even), per tensor or per axis.
 *
 * mode AOT_QUANTIZE_DIVIDE:   q = rne(x / scale[c]) + zero_point[c]   (ONNX QuantizeLinear; x / scale in float)
 * mode AOT_QUANTIZE_MULTIPLY: q = rne((double)x * scale[c]) + zero_point[c]
 *                             (requantization of exact integer accumulators, as QLinearConv / QLinearMatMul
 *                             define it: the product of a float and a float32 multiplier is exact in double)
 * with c = (i / inner) % channels, saturated to [-128, 127] (uint8 outputs are int8 data shifted by 128).  */
#ifndef AOT_KERNELS_QUANTIZE_ONNX_H_
#define AOT_KERNELS_QUANTIZE_ONNX_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_QUANTIZE_DIVIDE   0
#define AOT_QUANTIZE_MULTIPLY 1

void aot_quantize_onnx_f32_s8(const float* input, int8_t* output, int32_t size, int32_t mode, const float* scales,
                              const int32_t* zero_points, int32_t channels, int32_t inner);

#ifdef __cplusplus
}
#endif

#endif
