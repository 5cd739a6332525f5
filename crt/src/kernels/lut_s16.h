/* Lookup with linear interpolation in a 513-entry int16 table (TFLite's int16 LUT scheme): the top 9 bits of the
 * int16 input pick an entry, the low 7 bits interpolate towards the next one with rounding.  The tables are
 * computed by the compiler (compiler/ops/common/lut_int16.py).  Internal to the CRT. */
#ifndef AOT_SRC_KERNELS_LUT_S16_H_
#define AOT_SRC_KERNELS_LUT_S16_H_

#include <stdint.h>

static inline int32_t aot_lut_s16(int32_t value, const int16_t* lut)
{
    const int32_t index = 256 + (value >> 7);
    const int32_t offset = value & 0x7f;
    const int32_t base = lut[index];
    const int32_t slope = lut[index + 1] - base;
    /* Arithmetic right shift of a possibly negative product (as TFLite; GCC and Clang shift arithmetically). */
    return (int16_t)(base + ((slope * offset + 64) >> 7));
}

#endif
