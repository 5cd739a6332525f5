/* Fixed-point helpers of the signal kernels: two's complement narrowing and floor shifts written without
 * implementation-defined conversions or right shifts of negative values (TFLite Micro's signal library relies on
 * the usual wrap-around and arithmetic shift; these give the same bits on every C99 compiler). */
#ifndef AOT_KERNELS_SIGNAL_FIXED_H_
#define AOT_KERNELS_SIGNAL_FIXED_H_

#include <stdint.h>

static inline int16_t aot_sig_wrap16(int32_t v)
{
    const uint32_t u = (uint32_t)v & 0xFFFFu;
    return (int16_t)(u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u);
}

static inline int32_t aot_sig_wrap32(uint32_t u)
{
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

/* floor(v / 2^n), 0 <= n < 31 */
static inline int32_t aot_sig_asr(int32_t v, int32_t n)
{
    return v >= 0 ? v >> n : -(int32_t)((((uint32_t)0u - (uint32_t)v) + ((1u << n) - 1u)) >> n);
}

#endif
