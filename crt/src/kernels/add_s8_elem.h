/* Private: TFLite's int8 ADD / SUB arithmetic for one element, inlined into the loops that need it (the same-shape
 * ADD / SUB kernels of add_s8_flat.c and the convolutions with a fused residual ADD).
 *
 * TFLite computes, per element (input offsets o1, o2; left shift 20; Q0.31 multipliers with power-of-two exponents):
 *     s1  = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul((x1 + o1) << 20, m1), rs1)   (s2 likewise)
 *     out = clamp(RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(s1 +- s2, mo), rso) + zo, act_min, act_max)
 * The generic kernels (add_s8.c) call the out-of-line aot_multiply_by_quantized_multiplier three times, which
 * handles every shift and the one saturating product.  Here each of the three steps is dsp_s8.h's
 * aot_dsp_requant (one SMMLAR and one shift on the DSP cores), which is exact when its accumulator stays below 2^30
 * in magnitude, the right shift is at least 1 and the add constant plus the high product fits in int32.  For the
 * inputs |x + o| <= 255, so |(x + o) << 20| < 2^28: far from the saturating corner (that needs -2^31).  The input
 * with the larger scale has the multiplier 1/2 exactly (m = 2^30, rs = 0), i.e. s = (x + o) << 19; the compiler
 * passes it as m = 2^31 - 1 and rs = 1, which gives the same value for every |x + o| < 2^10 (the high product is
 * (x + o) << 20 minus less than one half, rounded), so every step has rs >= 1.  compiler/ops/add.py checks these
 * bounds for each op and compares this arithmetic with TFLite's on every pair of int8 inputs before it selects a
 * kernel using this header; otherwise the generic kernel runs.
 */
#ifndef AOT_KERNELS_ADD_S8_ELEM_H_
#define AOT_KERNELS_ADD_S8_ELEM_H_

#include <stdint.h>

#include "aot/kernels/add.h"
#include "dsp_s8.h"

/* One input rescaled to the common scale (s1 or s2 above). */
static inline int32_t aot_add_s8_rescale(int32_t x, int32_t bias, int32_t multiplier, int32_t add, int32_t right_shift)
{
    /* bias is the offset times 2^21: the doubled accumulator (x + offset) << 21 that SMMLAR takes. */
    return aot_dsp_requant_x2(x * (1 << 21) + bias, multiplier, add, right_shift);
}

/* x1 + x2 (or x1 - x2 when `subtract`, a constant at every call site) as TFLite's int8 ADD / SUB, clamped to the
 * activation range. */
static inline int32_t aot_add_s8_elem(int32_t x1, int32_t x2, const struct aot_add_s8_params* p, int subtract)
{
    const int32_t a = aot_add_s8_rescale(x1, p->in1_bias, p->in1_multiplier, p->in1_add, p->in1_shift);
    const int32_t b = aot_add_s8_rescale(x2, p->in2_bias, p->in2_multiplier, p->in2_add, p->in2_shift);
    const int32_t sum = subtract ? a - b : a + b;
    return aot_dsp_clamp(aot_dsp_requant(sum, p->out_multiplier, p->out_add, p->out_shift), p->act_min, p->act_max);
}

#endif /* AOT_KERNELS_ADD_S8_ELEM_H_ */
