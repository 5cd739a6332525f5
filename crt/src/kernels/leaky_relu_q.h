/* One element of TFLite's quantized LEAKY_RELU, shared by the int8 and int16 kernels: the input minus its zero
 * point is rescaled by the identity multiplier (s_in / s_out) where it is >= 0 and by the alpha multiplier
 * (s_in * alpha / s_out, negative for a negative alpha: the signed multiplier goes into the rounding multiply as
 * the tflite-micro interpreter does, whose ties then round as for a positive product) where it is negative, then
 * offset by the output zero point and saturated to [lo, hi].  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_LEAKY_RELU_Q_H_
#define AOT_SRC_KERNELS_LEAKY_RELU_Q_H_

#include <stdint.h>

#include "aot/requant.h"

struct aot_leaky_relu_q {
    int32_t input_zero_point, identity_multiplier, identity_shift, alpha_multiplier, alpha_shift;
    int32_t output_zero_point;
};

static inline int32_t aot_leaky_relu_q_elem(int32_t x, const struct aot_leaky_relu_q* p, int32_t lo, int32_t hi)
{
    const int32_t v = x - p->input_zero_point;
    int32_t out = p->output_zero_point;
    if (v >= 0) {
        out += aot_multiply_by_quantized_multiplier(v, p->identity_multiplier, p->identity_shift);
    } else {
        out += aot_multiply_by_quantized_multiplier(v, p->alpha_multiplier, p->alpha_shift);
    }
    return out < lo ? lo : (out > hi ? hi : out);
}

#endif
