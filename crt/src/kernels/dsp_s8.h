/* Private helpers of the compile-time-specialized int8 kernels (*_dsp.c).
 *
 * On cores with the DSP extension (__ARM_FEATURE_DSP: Cortex-M4/M7/M33/M55) the helpers are single
 * instructions: SXTB16 (two sign-extended bytes into two 16-bit lanes), SXTB16 with ROR #8 and SMLAD (two
 * 16x16 multiplies summed into a 32-bit accumulator).  Everywhere else (the host, Cortex-M0/M3) they are
 * tiny C emulations with identical results, so the weight layouts the compiler emits for a DSP core can be
 * built and checked bit-exact on the host.
 *
 * Lane convention: a "pair" is a uint32_t holding two int16 lanes, lane 0 in bits 0..15.  For four
 * consecutive int8 values x0 x1 x2 x3 read as one little-endian word, aot_sxtb16() gives (x0, x2) and
 * aot_sxtb16_ror8() gives (x1, x3).  Expanding inputs and weights with the same two helpers therefore
 * pairs x0 with w0, x2 with w2, x1 with w1 and x3 with w3: the original weight byte order needs no reshuffle.
 */
#ifndef AOT_KERNELS_DSP_S8_H_
#define AOT_KERNELS_DSP_S8_H_

#include <stdint.h>
#include <string.h>

#include "aot/requant.h"
#include "aot_words.h"

/* GCC and Clang would not always inline the larger loops that take a constant flag; the flag must fold away. */
#if defined(__GNUC__)
#define AOT_ALWAYS_INLINE static inline __attribute__((always_inline))
#define AOT_NOINLINE      static __attribute__((noinline))
#else
#define AOT_ALWAYS_INLINE static inline
#define AOT_NOINLINE      static
#endif

/* The small helpers of the MAC loops (a SMLAD, a quad of MACs, one requantization): GCC inlines them at -O2, but at
 * -Os it keeps many as calls (in the M4's 1x1 convolution, a call per four MACs: KWS at 7.24 M instructions instead
 * of 3.93 M), so under -Os they are forced inline; at -O2 they are left to GCC, whose choices the kernels were tuned
 * with. */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
#define AOT_HOT_INLINE static inline __attribute__((always_inline))
#else
#define AOT_HOT_INLINE static inline
#endif

#if defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>

AOT_HOT_INLINE uint32_t aot_sxtb16(uint32_t v)
{
    return (uint32_t)__sxtb16((int32_t)v);
}

AOT_HOT_INLINE uint32_t aot_sxtb16_ror8(uint32_t v)
{
    /* GCC 12 does not fold a rotate into SXTB16's rotate field; spell it out to save an instruction. */
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

AOT_HOT_INLINE int32_t aot_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlad((int32_t)a, (int32_t)b, acc);
}

/* acc + lane0(a) * lane0(b) */
AOT_HOT_INLINE int32_t aot_smlabb(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlabb((int32_t)a, (int32_t)b, acc);
}

/* Lane-wise a - b, each lane wrapping modulo 2^16. */
AOT_HOT_INLINE uint32_t aot_ssub16(uint32_t a, uint32_t b)
{
    return (uint32_t)__ssub16((int32_t)a, (int32_t)b);
}

/* Swaps the bytes inside each 16-bit half: REV16. */
AOT_HOT_INLINE uint32_t aot_rev16(uint32_t v)
{
    uint32_t r;
    __asm__("rev16 %0, %1" : "=r"(r) : "r"(v));
    return r;
}

/* Two words from a word stream, advancing it: one LDRD with post-increment (GCC 12 rarely pairs the loads of
 * these loops by itself). LDRD faults on an address that is not a multiple of 4 whatever UNALIGN_TRP says (Armv7-M
 * and Armv8-M need word alignment, not 8 bytes); the operand's type, a pointer to uint32_t, already requires it, and
 * every stream is a weight array or a scratch buffer the compiler aligns to 4 bytes or more. The stream may be int8 or
 * int32 data: the memory operand that tells GCC what the instruction reads is of the may-alias word type (aot_words.h),
 * so no type-based alias analysis moves a store of that data across it. */
AOT_HOT_INLINE void aot_load2(const uint32_t** p, uint32_t* a, uint32_t* b)
{
    const uint32_t* q = *p;
    uint32_t x, y;
    __asm__("ldrd %0, %1, [%2], #8" : "=r"(x), "=r"(y), "+r"(q) : "m"(*(const aot_w32(*)[2])(const void*)q));
    *a = x;
    *b = y;
    *p = q;
}

/* Per signed byte lane, a's byte where a >= b (is_max) or a <= b (otherwise), else b's: SSUB8 sets the GE flags
 * that SEL reads, in one statement because the flags between them are invisible to the compiler. */
AOT_HOT_INLINE uint32_t aot_sel_s8x4(uint32_t a, uint32_t b, int32_t is_max)
{
    uint32_t r;
    if (is_max) {
        __asm__("ssub8 %0, %1, %2\n\tsel %0, %1, %2" : "=&r"(r) : "r"(a), "r"(b) : "cc");
    } else {
        __asm__("ssub8 %0, %2, %1\n\tsel %0, %1, %2" : "=&r"(r) : "r"(a), "r"(b) : "cc");
    }
    return r;
}

#else /* portable emulation, bit-identical for the value ranges the kernels use */

AOT_HOT_INLINE int32_t aot_lane0(uint32_t v)
{
    return (int32_t)(int16_t)(uint16_t)(v & 0xFFFFu);
}

AOT_HOT_INLINE int32_t aot_lane1(uint32_t v)
{
    return (int32_t)(int16_t)(uint16_t)(v >> 16);
}

AOT_HOT_INLINE uint32_t aot_sxtb16(uint32_t v)
{
    const uint32_t lo = (uint32_t)(int32_t)(int8_t)(uint8_t)(v & 0xFFu) & 0xFFFFu;
    const uint32_t hi = (uint32_t)(int32_t)(int8_t)(uint8_t)((v >> 16) & 0xFFu) & 0xFFFFu;
    return lo | (hi << 16);
}

AOT_HOT_INLINE uint32_t aot_sxtb16_ror8(uint32_t v)
{
    return aot_sxtb16((v >> 8) | (v << 24));
}

AOT_HOT_INLINE int32_t aot_smlad(uint32_t a, uint32_t b, int32_t acc)
{
    /* Unsigned arithmetic wraps like the instruction instead of being undefined. */
    return (int32_t)((uint32_t)acc + (uint32_t)(aot_lane0(a) * aot_lane0(b)) + (uint32_t)(aot_lane1(a) * aot_lane1(b)));
}

AOT_HOT_INLINE int32_t aot_smlabb(uint32_t a, uint32_t b, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)(aot_lane0(a) * aot_lane0(b)));
}

AOT_HOT_INLINE uint32_t aot_rev16(uint32_t v)
{
    return ((v >> 8) & 0x00FF00FFu) | ((v << 8) & 0xFF00FF00u);
}

AOT_HOT_INLINE void aot_load2(const uint32_t** p, uint32_t* a, uint32_t* b)
{
    const aot_w32* const q = aot_w32_from(*p);
    *a = aot_w32_get(q);
    *b = aot_w32_get(q + 1);
    *p += 2;
}

AOT_HOT_INLINE uint32_t aot_ssub16(uint32_t a, uint32_t b)
{
    const uint32_t lo = (a - b) & 0xFFFFu;
    const uint32_t hi = ((a >> 16) - (b >> 16)) & 0xFFFFu;
    return lo | (hi << 16);
}

#endif

/* One possibly unaligned little-endian word; a single LDR on Cortex-M4/M7/M33 (and on x86). */
AOT_HOT_INLINE uint32_t aot_read32(const int8_t* p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* The "raw weight word" dot product used by the FC and convolution fast paths.
 *
 * For one quad of weights the compiler stores the bytes b0 = w0 + 128 (unsigned), b1 = w1, b2 = w2 + 128,
 * b3 = w3, so the word read as two int16 lanes is (w0 + 128 + 256 w1, w2 + 128 + 256 w3) and
 * aot_sxtb16_ror8 of it is (w1, w3).  The input quad x0..x3 is expanded once (shared by every output row)
 * into xa = (x0, x2) and xc = (x1 - 256 x0 - 128, x3 - 256 x2 - 128); both lanes of xc stay within int16
 * for every int8 input.  Then
 *     smlad(word, xa) + smlad(sxtb16_ror8(word), xc)
 *       = w0 x0 + w1 x1 + w2 x2 + w3 x3 + 128 (x0 + x2) - 128 (w1 + w3),
 * i.e. four MACs for three instructions.  The compiler adds 128 * sum(w1 + w3) to each row's bias, and the
 * kernel subtracts 128 * sum(x0 + x2) once per input row.  Partial sums may wrap, as SMLAD does; the final
 * accumulator is exact because its true value is below 2^30. */
AOT_HOT_INLINE uint32_t aot_expand_xa(uint32_t v)
{
    return aot_sxtb16(v);
}

AOT_HOT_INLINE uint32_t aot_expand_xc(uint32_t v)
{
    /* x1 - 256 x0 - 128 = (x1 + 128) + 256 (-x0 - 1): as a 16-bit lane that is the byte pair
     * (x1 ^ 0x80, ~x0), i.e. the halves of v byte-swapped and XORed with 0x80 / 0xFF. */
    return aot_rev16(v) ^ 0xFF80FF80u;
}

/* TFLite's MultiplyByQuantizedMultiplier for a right shift rs >= 1, plus the output zero point, in a short
 * form that is exact whenever |acc| < 2^30 and add + h below fits in int32 (the compiler proves both per
 * channel, over every accumulator the layer can reach, before it selects a *_dsp kernel, and encodes a channel
 * whose output is constant as m = 0, add = 2 v + 1: see compiler/ops/common/short_requant.py):
 *  - the rounding doubling high multiply h = nudge-then-truncate(acc * m / 2^31) equals
 *    floor((2 acc * m + 2^31) / 2^32) for both signs, and acc * m never reaches its one saturating case;
 *  - rounding h half away from zero by 2^rs is (h + 2^(rs-1) - (h < 0)) >> rs; (h < 0) may be replaced by
 *    (acc < 0): they differ only when h == 0, where the result is 0 either way;
 *  - adding the output offset o after the shift equals adding o * 2^rs before it.
 * So with the per-channel constant add = 2^(rs-1) + o * 2^rs (precomputed by the compiler, modulo 2^32)
 *     out = (add + (acc >> 31) + h) >> rs,
 * which is one SMMLAR (accumulate + rounded high multiply) and one shift; the sum wraps modulo 2^32 and equals
 * the true one where that fits in int32.  add = 2^(rs-1) * (2 o + 1) and 2 o + 1 is odd, so rs <= 31 is
 * recovered from add as its number of trailing zeros + 1 (aot_dsp_shift). */
AOT_HOT_INLINE int32_t aot_dsp_shift(int32_t add)
{
    return (int32_t)__builtin_ctz((uint32_t)add) + 1;
}

/* a + round(x * m / 2^32) (SMMLAR: rounded most significant word of the product, accumulated). */
AOT_HOT_INLINE int32_t aot_dsp_smmlar(int32_t x, int32_t m, int32_t a)
{
    int32_t r;
#if defined(__ARM_FEATURE_DSP)
    __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(a));
#else
    /* Wraps like the instruction (the compiler relies on it for add constants stored modulo 2^32). */
    r = (int32_t)((uint32_t)a + (uint32_t)(int32_t)(((int64_t)x * m + ((int64_t)1 << 31)) >> 32));
#endif
    return r;
}

/* The sign term is taken from acc, not from acc * 2, so that it does not wait for the doubling. */
AOT_HOT_INLINE int32_t aot_dsp_requant(int32_t acc, int32_t multiplier, int32_t add, int32_t right_shift)
{
    return aot_dsp_smmlar(acc * 2, multiplier, add + (acc >> 31)) >> right_shift;
}

/* The same from acc2 = 2 * acc (callers that can form the doubled accumulator for free save the doubling). */
AOT_HOT_INLINE int32_t aot_dsp_requant_x2(int32_t acc2, int32_t multiplier, int32_t add, int32_t right_shift)
{
    return aot_dsp_smmlar(acc2, multiplier, add + (acc2 >> 31)) >> right_shift;
}

/* TFLite's requantization in full (aot_multiply_by_quantized_multiplier) plus the output zero point, for the
 * *_exact entry points: layers with a channel the short form cannot take (compiler/ops/common/short_requant.py: a left
 * shift with three or more outputs, an accumulator that can reach 2^30, a large right shift with a large zero
 * point and a wide output range).  The per-channel constant holds zp * 256 + shift (shift in -31..31). */
AOT_HOT_INLINE int32_t aot_dsp_requant_exact(int32_t acc, int32_t multiplier, int32_t zp_shift)
{
    const int32_t shift = (int32_t)(int8_t)(uint8_t)((uint32_t)zp_shift & 0xFFu);
    return aot_multiply_by_quantized_multiplier(acc, multiplier, shift) + (zp_shift - shift) / 256;
}

/* Saturates to int8 (SSAT #8 on the DSP cores). */
AOT_HOT_INLINE int32_t aot_dsp_sat8(int32_t v)
{
#if defined(__ARM_FEATURE_DSP)
    return __ssat(v, 8);
#else
    return v < -128 ? -128 : (v > 127 ? 127 : v);
#endif
}

/* Clamps a requantized value to the fused activation range [act_min, act_max] (within int8). */
AOT_HOT_INLINE int32_t aot_dsp_clamp(int32_t v, int32_t act_min, int32_t act_max)
{
    v = v < act_min ? act_min : v;
    return v > act_max ? act_max : v;
}

/* Requantized, offset, clamped and narrowed, for the paths where speed does not matter. */
AOT_HOT_INLINE int8_t aot_dsp_output(int32_t acc, int32_t multiplier, int32_t add, int32_t act_min, int32_t act_max)
{
    return (int8_t)aot_dsp_clamp(aot_dsp_requant(acc, multiplier, add, aot_dsp_shift(add)), act_min, act_max);
}

#endif /* AOT_KERNELS_DSP_S8_H_ */
