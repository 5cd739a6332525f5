/* TFLite's int8 ADD of one element in the short form the compiler proves exact (compiler/ops/common/add_s8_fast.py),
 * for the shape-specialized bodies of Cortex-M0/M3 that fuse a residual ADD into a convolution
 * (aot/kernels/conv2d_s8_packed_inline.h).  The same arithmetic as the CRT's private crt/src/kernels/add_s8_elem.h
 * on a core without SMMLAR (its portable emulation, which that file derives): three rounding high multiplies with
 * an add constant and a shift, parameters in struct aot_add_s8_params (aot/kernels/add.h).
 */
#ifndef AOT_KERNELS_ADD_S8_ELEM_INLINE_H_
#define AOT_KERNELS_ADD_S8_ELEM_INLINE_H_

#include <stdint.h>

#include "aot/kernels/add.h"
#include "aot/kernels/requant_s8_inline.h"

/* (add + sign + round(acc2 * m / 2^32)) >> right_shift, the sum modulo 2^32 (SMLAL and a shift on the M3); sign is
 * -1 for a negative accumulator, else 0. */
AOT_INLINE_BODY int32_t aot_add_rq_x2(int32_t acc2, int32_t sign, int32_t multiplier, int32_t add, int32_t right_shift)
{
    const int32_t high = (int32_t)(((int64_t)acc2 * multiplier + ((int64_t)1 << 31)) >> 32);
    return (int32_t)((uint32_t)add + (uint32_t)sign + (uint32_t)high) >> right_shift;
}

/* x1 + x2 as TFLite's int8 ADD with the parameters *p, clamped to its activation range. */
AOT_INLINE_BODY int32_t aot_add_s8_elem_inline(int32_t x1, int32_t x2, const struct aot_add_s8_params* p)
{
    const int32_t x1s = x1 * (1 << 21) + p->in1_bias;
    const int32_t x2s = x2 * (1 << 21) + p->in2_bias;
    const int32_t a = aot_add_rq_x2(x1s, x1s >> 31, p->in1_multiplier, p->in1_add, p->in1_shift);
    const int32_t b = aot_add_rq_x2(x2s, x2s >> 31, p->in2_multiplier, p->in2_add, p->in2_shift);
    const int32_t sum = a + b;
    int32_t v = aot_add_rq_x2(sum * 2, sum >> 31, p->out_multiplier, p->out_add, p->out_shift);
    v = v < p->act_min ? p->act_min : v;
    return v > p->act_max ? p->act_max : v;
}

#endif /* AOT_KERNELS_ADD_S8_ELEM_INLINE_H_ */
