/* The DSP depthwise kernels' halfword multiply-accumulates and paired word loads (SMLABT / SMLATB, LDRD; portable
 * emulations without the DSP extension), shared by the planar kernels (depthwise_conv2d_s8_dsp.c) and the
 * channel-vectorized one (depthwise_conv2d_s8_dsp_c4.c).
 */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_S8_DSP_MAC_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_S8_DSP_MAC_H_

#include "dsp_s8.h"

#if defined(__ARM_FEATURE_DSP)
AOT_HOT_INLINE int32_t aot_smlabt(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlabt((int32_t)a, (int32_t)b, acc);
}

AOT_HOT_INLINE int32_t aot_smlatb(uint32_t a, uint32_t b, int32_t acc)
{
    return __smlatb((int32_t)a, (int32_t)b, acc);
}

/* Two words at p (an int16 pointer), then p advances by `step` bytes (one LDRD with post-increment). The memory
 * operand is of the may-alias word type (aot_words.h): the int16 planes and records are read as words. */
#define AOT_DW_LOAD2(p, a, b, step)                                                                                    \
    __asm__("ldrd %0, %1, [%2], #" #step : "=r"(a), "=r"(b), "+r"(p) : "m"(*(const aot_w32(*)[2])(const void*)(p)))
#else
AOT_HOT_INLINE int32_t aot_smlabt(uint32_t a, uint32_t b, int32_t acc)
{
    return (int32_t)((uint32_t)acc + (uint32_t)((int32_t)(int16_t)(a & 0xFFFFu) * (int32_t)(int16_t)(b >> 16)));
}

AOT_HOT_INLINE int32_t aot_smlatb(uint32_t a, uint32_t b, int32_t acc)
{
    return aot_smlabt(b, a, acc);
}

#define AOT_DW_LOAD2(p, a, b, step)                                                                                    \
    do {                                                                                                               \
        (a) = aot_read32((const int8_t*)(p));                                                                          \
        (b) = aot_read32((const int8_t*)(p) + 4);                                                                      \
        (p) += (step) / 2;                                                                                             \
    } while (0)
#endif

#endif /* AOT_KERNELS_DEPTHWISE_CONV2D_S8_DSP_MAC_H_ */
