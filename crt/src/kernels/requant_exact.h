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
 *  - with a right shift r >= 1 (shift < 0, no left shift) TFLite rounds h half away from zero, which is
 *    floor((h + 2^(r-1) - (h < 0)) / 2^r). Floors nest (floor(floor(a / 2^31) / 2^r) = floor(a / 2^(31 + r))
 *    and an integer c added after the first division is c 2^31 added before it), so the whole is
 *        floor((x m + C) / 2^(31 + r)),   C = 2^30 + 2^(r+30) - (x < 0) 2^31,
 *    where (x < 0) may replace (h < 0): they differ only when h = 0, whose result is 0 either way. That is one
 *    SMLAL into the 64-bit constant C (its high word shifted right by r - 1 is the result): four instructions;
 *  - with no right shift (shift >= 0) the result is h itself.
 * The 64-bit product is the only 64-bit arithmetic (one SMLAL on the core); nothing 64-bit crosses an interface.
 */
#ifndef AOT_KERNELS_REQUANT_EXACT_H_
#define AOT_KERNELS_REQUANT_EXACT_H_

#include <stdint.h>

#if defined(__GNUC__)
#define AOT_RQ_INLINE static inline __attribute__((always_inline))
#else
#define AOT_RQ_INLINE static inline
#endif

/* A multiplier and TFLite shift prepared for aot_rq: for shift < 0 the constant C of the comment above for a
 * non-negative x (c_lo, c_hi) and r - 1; for shift >= 0 the left shift. */
struct aot_rq {
    int32_t mult;
    int32_t right; /* shift < 0: -shift - 1 (the shift of the high word); else -1 */
    int32_t left;  /* shift > 0 ? shift : 0 */
    uint32_t c_lo;
    int32_t c_hi;
};

AOT_RQ_INLINE struct aot_rq aot_rq_prepare(int32_t mult, int32_t shift)
{
    struct aot_rq q;
    q.mult = mult;
    q.left = shift > 0 ? shift : 0;
    q.right = shift < 0 ? -shift - 1 : -1;
    /* 2^30 + 2^(r+30): r = 1 gives 0xC0000000 in the low word; r >= 2 gives 2^30 and 2^(r-2) in the high word. */
    q.c_lo = shift == -1 ? 0xC0000000u : 0x40000000u;
    q.c_hi = shift < -1 ? (int32_t)((uint32_t)1 << (-shift - 2)) : 0;
    return q;
}

/* floor((x m + C) / 2^32) >> right with C = (c_lo, c_hi) - (x < 0) 2^31. */
AOT_RQ_INLINE int32_t aot_rq_right(int32_t x, int32_t mult, uint32_t c_lo, int32_t c_hi, int32_t right)
{
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
    uint32_t lo;
    int32_t hi;
    const int32_t s = x >> 31;
    /* (lo, hi) = C + s 2^31 (s = -1 or 0 sign-extends to 64 bits), then += x m. */
    __asm__("adds %0, %2, %4, lsl #31\n\t"
            "adc %1, %3, %4\n\t"
            "smlal %0, %1, %5, %6"
            : "=&r"(lo), "=&r"(hi)
            : "r"(c_lo), "r"(c_hi), "r"(s), "r"(x), "r"(mult)
            : "cc");
    return hi >> right;
#else
    const int64_t c = (int64_t)(((uint64_t)(uint32_t)c_hi << 32) | c_lo) - (x < 0 ? ((int64_t)1 << 31) : 0);
    return (int32_t)((c + (int64_t)x * mult) >> 32) >> right;
#endif
}

/* h = floor((xs m + 2^30) / 2^31), xs = x << left (modulo 2^32). */
AOT_RQ_INLINE int32_t aot_rq_left(int32_t x, int32_t mult, int32_t left)
{
    const int32_t xs = (int32_t)((uint32_t)x << left);
    return (int32_t)(((int64_t)xs * mult + ((int64_t)1 << 30)) >> 31);
}

/* round(x * mult * 2^(shift - 31)) exactly as aot_multiply_by_quantized_multiplier (TFLite's double rounding). */
AOT_RQ_INLINE int32_t aot_rq(int32_t x, const struct aot_rq* q)
{
    return q->right >= 0 ? aot_rq_right(x, q->mult, q->c_lo, q->c_hi, q->right) : aot_rq_left(x, q->mult, q->left);
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
