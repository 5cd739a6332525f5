/* Shared pieces of the int8 kernel bodies kept in headers (aot/kernels/..._inline.h).
 *
 * Each such header holds a kernel's only implementation as a `static inline` body: the CRT's out-of-line kernel
 * (crt/src/kernels/<op>.c) calls it with run-time arguments, and for cores without the DSP extension
 * (Cortex-M0/M3) the generated model calls it from a `static` function with every shape, stride, padding,
 * zero point and loop bound written as a literal, so the compiler constant-propagates the body, unrolls its
 * short constant loops and drops the branches that cannot happen (compiler/ops/common/specialize.py).  The bodies
 * are forced inline (GCC and Clang) because that propagation is their point.
 *
 * Requantization comes in two forms, selected by a literal `requant` argument so only one is compiled:
 *  - AOT_REQUANT_EXACT: per channel a multiplier and TFLite's shift, aot_multiply_by_quantized_multiplier()
 *    (exact for every accumulator) plus the output offset;
 *  - AOT_REQUANT_SHORT: per channel a multiplier and an add constant add = 2^(rs-1) + output_offset * 2^rs
 *    (rs = -shift >= 1, modulo 2^32; the same constants as the DSP kernels', compiler/ops/common/short_requant.py):
 *        out = (add + (2 acc >> 31) + floor((2 acc * m + 2^31) / 2^32)) >> rs
 *    which equals TFLite's MultiplyByQuantizedMultiplier plus the offset whenever |acc| < 2^30 and the sum
 *    before the shift fits in int32 (it is taken modulo 2^32); the compiler proves both per channel before
 *    choosing it (short_requant, which also encodes constant channels as m = 0), and the derivation is in
 *    crt/src/kernels/dsp_s8.h.  rs is recovered from add (2^(rs-1) times an odd number).  On Cortex-M3
 *    the whole form is one SMLAL with the 64-bit accumulator preset to (add + (2 acc >> 31), 2^31) and one
 *    shift; the product is the only 64-bit arithmetic.
 */
#ifndef AOT_KERNELS_REQUANT_S8_INLINE_H_
#define AOT_KERNELS_REQUANT_S8_INLINE_H_

#include <stdint.h>

#include "aot/requant.h"

#if defined(__GNUC__)
#define AOT_INLINE_BODY static inline __attribute__((always_inline))
#else
#define AOT_INLINE_BODY static inline
#endif

/* Placed before a loop whose trip count is a literal in the specialized functions (filter taps): GCC unrolls it
 * completely there; bodies use it only under AOT_CONSTANT(trip count), so run-time loops stay as written. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define AOT_UNROLL _Pragma("GCC unroll 32")
#else
#define AOT_UNROLL
#endif

/* True when the optimizer knows x as a constant (after the body is inlined into a specialized function). */
#if defined(__GNUC__)
#define AOT_CONSTANT(x) __builtin_constant_p(x)
#else
#define AOT_CONSTANT(x) 0
#endif

/* Makes the optimizer forget what pointer p holds (no instruction): keeps loads inside a loop when hoisting them
 * would only spill them to the stack. */
#if defined(__GNUC__)
#define AOT_OPAQUE(p) __asm__ __volatile__("" : "+r"(p))
#else
#define AOT_OPAQUE(p) ((void)0)
#endif

#define AOT_REQUANT_EXACT 0
#define AOT_REQUANT_SHORT 1

/* Number of trailing zero bits of a non-zero value. */
AOT_INLINE_BODY int32_t aot_rq_ctz(uint32_t v)
{
#if defined(__GNUC__)
    return (int32_t)__builtin_ctz(v);
#else
    /* At most 32 steps: 0 (which callers never pass) answers 32 instead of looping forever. */
    int32_t n = 0;
    while (n < 32 && (v & 1u) == 0u) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

/* v clamped to [act_min, act_max] (within int8): one SSAT for the full int8 range where the core has it. */
AOT_INLINE_BODY int8_t aot_rq_clamp_s8(int32_t v, int32_t act_min, int32_t act_max)
{
#if defined(__ARM_FEATURE_SAT) && defined(__GNUC__)
    if (AOT_CONSTANT(act_min) && AOT_CONSTANT(act_max) && act_min == -128 && act_max == 127) {
        int32_t r;
        __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(v));
        return (int8_t)r;
    }
#endif
    v = v < act_min ? act_min : v;
    v = v > act_max ? act_max : v;
    return (int8_t)v;
}

/* acc requantized, offset and clamped to [act_min, act_max] (a sub-range of int8).  `second` is the channel's
 * TFLite shift (AOT_REQUANT_EXACT) or add constant (AOT_REQUANT_SHORT, output_offset then unused). */
AOT_INLINE_BODY int8_t aot_requant_s8(int32_t acc, int32_t requant, int32_t multiplier, int32_t second,
                                      int32_t output_offset, int32_t act_min, int32_t act_max)
{
    int32_t v;
    if (requant == AOT_REQUANT_SHORT) {
        const int32_t acc2 = (int32_t)((uint32_t)acc << 1);
        /* (hi, lo) = (add + (acc2 < 0 ? -1 : 0), 2^31) + acc2 * m: SMLAL on Cortex-M3. */
        const int64_t preset = (int64_t)(second + (acc2 >> 31)) * 4294967296 + 2147483648;
        const int64_t sum = preset + (int64_t)acc2 * multiplier;
        /* The high word modulo 2^32 (GCC converts out-of-range values modulo 2^32; on the core it is a register). */
        v = (int32_t)(uint32_t)((uint64_t)sum >> 32) >> (aot_rq_ctz((uint32_t)second) + 1);
    } else {
        v = aot_multiply_by_quantized_multiplier(acc, multiplier, second) + output_offset;
    }
    return aot_rq_clamp_s8(v, act_min, act_max);
}

#endif /* AOT_KERNELS_REQUANT_S8_INLINE_H_ */
