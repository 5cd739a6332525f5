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

/* The same ADD three elements at a time, for the hot loops (the convolutions' fused residual ADD, the flat ADD).
 * One input always has the multiplier 1/2 (the one with the larger scale; compiler/ops/common/add_s8_fast.py passes
 * it as m = 2^31 - 1, right shift 1, add 1), and for it the step is exactly (x + o) << 19 (the exhaustive check there
 * compares the short form, which gives that value, with TFLite): one shifted add instead of a multiply.  The other
 * input ("a") keeps its full step.  `a_is_in2` says which of the two that is; `usable` is 0 when neither input has
 * the multiplier 1/2 (parameters this code was not built for), and then the callers use aot_add_s8_elem. */
struct aot_add_s8_fast {
    /* Byte offsets 0 to 40, read by the asm below. */
    int32_t a_bias, a_multiplier, a_add, a_shift; /* the step of the input rescaled in full */
    int32_t b_offset;                             /* the halved input's -offset << 19 */
    int32_t out_multiplier, out_add, out_shift, act_min, act_max;
    int32_t act_full; /* 40: the activation range is all of int8 (the saturation clamps), read by the asm */
    int32_t usable, a_is_in2;
    const struct aot_add_s8_params* p; /* the original parameters, for the fallback */
};

/* The halved-input test: m = 2^31 - 1, right shift 1, add 1 (add_s8_fast.py's _input_step). */
AOT_HOT_INLINE int aot_add_s8_is_half(int32_t multiplier, int32_t add, int32_t right_shift)
{
    return multiplier == INT32_MAX && add == 1 && right_shift == 1;
}

/* Fills f from the ADD parameters p (once per layer). */
static inline void aot_add_s8_fast_init(struct aot_add_s8_fast* f, const struct aot_add_s8_params* p)
{
    const int half2 = aot_add_s8_is_half(p->in2_multiplier, p->in2_add, p->in2_shift);
    const int half1 = aot_add_s8_is_half(p->in1_multiplier, p->in1_add, p->in1_shift);
    f->p = p;
    f->usable = half1 || half2;
    f->a_is_in2 = !half2;
    f->a_bias = half2 ? p->in1_bias : p->in2_bias;
    f->a_multiplier = half2 ? p->in1_multiplier : p->in2_multiplier;
    f->a_add = half2 ? p->in1_add : p->in2_add;
    f->a_shift = half2 ? p->in1_shift : p->in2_shift;
    /* bias is -o * 2^21; the halved step adds -o * 2^19 (exact: the low bits are zero). */
    f->b_offset = (half2 ? p->in2_bias : p->in1_bias) / 4;
    f->out_multiplier = p->out_multiplier;
    f->out_add = p->out_add;
    f->out_shift = p->out_shift;
    f->act_min = p->act_min;
    f->act_max = p->act_max;
    f->act_full = p->act_min <= -128 && p->act_max >= 127;
}

/* ADD(a, b) for one element, a the input with the full step and b the halved one (f->usable must hold). */
AOT_HOT_INLINE int32_t aot_add_s8_fast1(int32_t a, int32_t b, const struct aot_add_s8_fast* f)
{
    const int32_t sa = aot_dsp_requant_x2(a * (1 << 21) + f->a_bias, f->a_multiplier, f->a_add, f->a_shift);
    const int32_t sum = sa + b * (1 << 19) + f->b_offset;
    return aot_dsp_clamp(aot_dsp_requant(sum, f->out_multiplier, f->out_add, f->out_shift), f->act_min, f->act_max);
}

/* a_k <- ADD(a_k, b_k) for k = 0, 1, 2, where a_k is the input with the full step and b_k the halved one (f->usable
 * must hold). */
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__) && defined(__thumb2__) && defined(__OPTIMIZE__)
/* One asm block: the parameters are read once per three elements (LDRD pairs) and every step stays in registers,
 * which GCC's code, spilling at both -O2 and -Os, did not do. */
#define AOT_ADD_RESCALE_A(v)                                                                                           \
    "add %[t0], %[t2], " v ", asr #31\n\t"                                                                             \
    "smmlar " v ", " v ", %[t1], %[t0]\n\t"                                                                            \
    "asr " v ", " v ", %[t3]\n\t"
#define AOT_ADD_REQUANT_OUT(v)                                                                                         \
    "add %[t0], %[t2], " v ", asr #31\n\t"                                                                             \
    "lsl " v ", " v ", #1\n\t"                                                                                         \
    "smmlar " v ", " v ", %[t1], %[t0]\n\t"                                                                            \
    "asr " v ", " v ", %[t3]\n\t"
/* After the saturation to int8 (all an int8 activation range needs when it is all of int8, the common case). */
#define AOT_ADD_CLAMP(v)                                                                                               \
    "cmp " v ", %[t0]\n\t"                                                                                             \
    "it lt\n\t"                                                                                                        \
    "movlt " v ", %[t0]\n\t"                                                                                           \
    "cmp " v ", %[t1]\n\t"                                                                                             \
    "it gt\n\t"                                                                                                        \
    "movgt " v ", %[t1]\n\t"
AOT_HOT_INLINE void aot_add_s8_fast3(int32_t* a0, int32_t* a1, int32_t* a2, int32_t b0, int32_t b1, int32_t b2,
                                     const struct aot_add_s8_fast* f)
{
    int32_t x0 = *a0, x1 = *a1, x2 = *a2;
    int32_t t0, t1, t2, t3;
    __asm__(
        "ldrd %[t0], %[t1], [%[f]]\n\t"
        "ldrd %[t2], %[t3], [%[f], #8]\n\t"
        "add %[x0], %[t0], %[x0], lsl #21\n\t"
        "add %[x1], %[t0], %[x1], lsl #21\n\t"
        "add %[x2], %[t0], %[x2], lsl #21\n\t" AOT_ADD_RESCALE_A("%[x0]") AOT_ADD_RESCALE_A("%[x1]") AOT_ADD_RESCALE_A(
            "%[x2]") "ldr %[t0], [%[f], #16]\n\t"
                     "add %[x0], %[x0], %[b0], lsl #19\n\t"
                     "add %[x1], %[x1], %[b1], lsl #19\n\t"
                     "add %[x2], %[x2], %[b2], lsl #19\n\t"
                     "add %[x0], %[x0], %[t0]\n\t"
                     "add %[x1], %[x1], %[t0]\n\t"
                     "add %[x2], %[x2], %[t0]\n\t"
                     "ldrd %[t1], %[t2], [%[f], #20]\n\t"
                     "ldr %[t3], [%[f], #28]\n\t" AOT_ADD_REQUANT_OUT("%[x0]") AOT_ADD_REQUANT_OUT("%[x1]")
                         AOT_ADD_REQUANT_OUT("%[x2]") "ssat %[x0], #8, %[x0]\n\t"
                                                      "ssat %[x1], #8, %[x1]\n\t"
                                                      "ssat %[x2], #8, %[x2]\n\t"
                                                      "ldr %[t0], [%[f], #40]\n\t"
                                                      "cmp %[t0], #0\n\t"
                                                      "bne 1f\n\t"
                                                      "ldrd %[t0], %[t1], [%[f], #32]\n\t" AOT_ADD_CLAMP("%[x0]")
                                                          AOT_ADD_CLAMP("%[x1]") AOT_ADD_CLAMP("%[x2]") "1:"
        : [x0] "+&r"(x0), [x1] "+&r"(x1), [x2] "+&r"(x2), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
        : [b0] "r"(b0), [b1] "r"(b1), [b2] "r"(b2), [f] "r"(f), "m"(*f)
        : "cc");
    *a0 = x0;
    *a1 = x1;
    *a2 = x2;
}
#else
AOT_HOT_INLINE void aot_add_s8_fast3(int32_t* a0, int32_t* a1, int32_t* a2, int32_t b0, int32_t b1, int32_t b2,
                                     const struct aot_add_s8_fast* f)
{
    *a0 = aot_add_s8_fast1(*a0, b0, f);
    *a1 = aot_add_s8_fast1(*a1, b1, f);
    *a2 = aot_add_s8_fast1(*a2, b2, f);
}
#endif

#endif /* AOT_KERNELS_ADD_S8_ELEM_H_ */
