/* One element of TFLite's QUANTIZE arithmetic, shared by the QUANTIZE kernels of every integer width
 * (quantize_*.c): float -> integer affine quantization and integer -> integer requantization, each saturated to
 * the output type's [lo, hi].  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_QUANT_ELEM_H_
#define AOT_SRC_KERNELS_QUANT_ELEM_H_

#include <math.h>
#include <stdint.h>

#include "aot/requant.h"

/* TFLite's AffineQuantize: round(x / scale) (division and rounding half away from zero in float) plus the zero
 * point.  Saturation happens in the float domain: converting an out-of-range float to an integer is undefined in
 * C, and NaN must map somewhere deterministic (to lo). */
static inline int32_t aot_qe_quantize_f32(float x, float scale, int32_t zero_point, int32_t lo, int32_t hi)
{
    const float r = roundf(x / scale);
    if (!(r >= (float)(lo - zero_point))) {
        return lo;
    }
    if (r > (float)(hi - zero_point)) {
        return hi;
    }
    return (int32_t)r + zero_point;
}

/* TFLite's Requantize: (x - input zero point) rescaled by multiplier/shift, plus the output zero point,
 * saturated.  The subtraction wraps through uint32_t as TFLite's int32 arithmetic does in practice for int32
 * inputs (for int8 / int16 inputs it cannot overflow). */
static inline int32_t aot_qe_requantize(int32_t x, int32_t input_zero_point, int32_t multiplier, int32_t shift,
                                        int32_t output_zero_point, int32_t lo, int32_t hi)
{
    const int32_t centred = (int32_t)((uint32_t)x - (uint32_t)input_zero_point);
    const int32_t q = aot_multiply_by_quantized_multiplier(centred, multiplier, shift);
    /* Adding the output zero point in int32 as TFLite does; it stays in range for int8/int16 outputs, and an
     * int32 output's zero point is 0 in every converter's output. */
    const int32_t v = (int32_t)((uint32_t)q + (uint32_t)output_zero_point);
    return v < lo ? lo : (v > hi ? hi : v);
}

#endif
