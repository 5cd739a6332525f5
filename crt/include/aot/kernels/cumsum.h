/* CUMSUM along one axis, the data seen as [outer, axis_size, inner]: running sums in axis order, or from the end
 * (reverse); exclusive writes the sum before adding the element (TFLite Micro's reference order).
 *
 * int8 follows TFLite Micro's quantized reference: each element, offset by -input_zero_point and shifted left by
 * 20 bits, is rescaled by one half (in_multiplier / in_shift) into a 32-bit running sum that starts at the rescaled
 * offset itself (not 0, as TFLite Micro does); each written sum is rescaled by out_multiplier / out_shift
 * (2 * input_scale / (2^20 * output_scale)), offset by the output zero point and saturated to int8.  The running
 * sum wraps on 32-bit overflow like the reference does in practice.  q = {input_offset, in_multiplier, in_shift,
 * out_multiplier, out_shift, output_offset}; the shifts are <= 0 (right shifts).  */
#ifndef AOT_KERNELS_CUMSUM_H_
#define AOT_KERNELS_CUMSUM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_cumsum_f32(const float* input, float* output, int32_t outer, int32_t axis_size, int32_t inner,
                    int32_t exclusive, int32_t reverse);
void aot_cumsum_s8(const int8_t* input, int8_t* output, int32_t outer, int32_t axis_size, int32_t inner,
                   int32_t exclusive, int32_t reverse, const int32_t* q);

#ifdef __cplusplus
}
#endif

#endif
