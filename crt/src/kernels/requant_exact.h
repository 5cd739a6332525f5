/* TFLite's MultiplyByQuantizedMultiplier inline, exact for every multiplier and shift the compiler emits, for
 * kernels that requantize once per element (the recurrent kernels: LSTM gates and cell, SVDF).
 *
 * aot_multiply_by_quantized_multiplier() is out of line; on the Cortex-M4 its call, prologue and branches cost
 * about twice the arithmetic itself. Here the shift is split once per layer (or gate) into a left shift and a
 * rounding right shift (aot_rq_prepare), and each element then costs one 32x32->64 multiply and a handful of
 * branch-free instructions:
 *  - x << left wraps modulo 2^32 as the reference does in practice;
 *  - gemmlowp's saturating rounding doubling high multiply is floor((x m + 2^30) / 2^31): equal to its nudge and
 *    truncation for both signs, and its one saturating case (x = m = INT32_MIN) cannot occur because the
 *    multiplier is a non-negative int32 (quantize_multiplier gives 0 or [2^30, 2^31));
 *  - the right shift rounds half away from zero: (h >> right) + ((h & mask) > (mask >> 1) + (h < 0)). With
 *    right = 0 the mask is 0 and the correction is 0 for either sign, so no branch on the sign of the shift.
 * The 64-bit product is the only 64-bit arithmetic (one SMULL on the core); nothing 64-bit crosses an interface.
 */
#ifndef AOT_KERNELS_REQUANT_EXACT_H_
#define AOT_KERNELS_REQUANT_EXACT_H_

#include <stdint.h>

#if defined(__GNUC__)
#define AOT_RQ_INLINE static inline __attribute__((always_inline))
#else
#define AOT_RQ_INLINE static inline
#endif

/* A multiplier and TFLite shift split for aot_rq_apply. */
struct aot_rq {
    int32_t mult;
    int32_t left;     /* shift > 0 ? shift : 0 */
    int32_t right;    /* shift > 0 ? 0 : -shift (0..31) */
    int32_t mask;     /* 2^right - 1 */
};

AOT_RQ_INLINE struct aot_rq aot_rq_prepare(int32_t mult, int32_t shift)
{
    struct aot_rq q;
    q.mult = mult;
    q.left = shift > 0 ? shift : 0;
    q.right = shift > 0 ? 0 : -shift;
    q.mask = (int32_t)(((uint32_t)1 << q.right) - 1u);
    return q;
}

/* round(x * mult * 2^(shift - 31)) exactly as aot_multiply_by_quantized_multiplier (TFLite's double rounding). */
AOT_RQ_INLINE int32_t aot_rq_apply(int32_t x, int32_t mult, int32_t left, int32_t right, int32_t mask)
{
    const int32_t xs = (int32_t)((uint32_t)x << left);
    const int32_t h = (int32_t)(((int64_t)xs * mult + ((int64_t)1 << 30)) >> 31);
    /* (mask >> 1) + (h < 0): h >> 31 is -1 for a negative h. */
    const int32_t threshold = (mask >> 1) - (h >> 31);
    return (h >> right) + ((h & mask) > threshold ? 1 : 0);
}

AOT_RQ_INLINE int32_t aot_rq(int32_t x, const struct aot_rq* q)
{
    return aot_rq_apply(x, q->mult, q->left, q->right, q->mask);
}

/* x saturated to int16: one SSAT where the core has it. */
AOT_RQ_INLINE int32_t aot_sat16(int32_t x)
{
#if defined(__ARM_FEATURE_SAT) && defined(__GNUC__)
    int32_t r;
    __asm__("ssat %0, #16, %1" : "=r"(r) : "r"(x));
    return r;
#else
    return x < -32768 ? -32768 : (x > 32767 ? 32767 : x);
#endif
}

/* x saturated to int8. */
AOT_RQ_INLINE int32_t aot_sat8(int32_t x)
{
#if defined(__ARM_FEATURE_SAT) && defined(__GNUC__)
    int32_t r;
    __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(x));
    return r;
#else
    return x < -128 ? -128 : (x > 127 ? 127 : x);
#endif
}

#endif /* AOT_KERNELS_REQUANT_EXACT_H_ */
