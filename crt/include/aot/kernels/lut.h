/* Element-wise int8 table lookup: output[i] = table[(uint8_t)input[i]], the 256-entry table computed at compile
 * time from the op's exact integer (or, for ELU, float) reference arithmetic (compiler/ops/common/lut_s8.py).  Output
 * may be the input's buffer (each element is read before it is written).  Three forms with identical results:
 *   aot_lut_s8       every core: bytes, four per loop pass;
 *   aot_lut_s8_word  cores with unaligned word access (Armv7E-M, Armv8-M Mainline): four inputs per word load,
 *                    four table bytes merged into one word store, two words per loop pass;
 *   aot_lut_s8_mve   Helium: sixteen lookups per gather load (VLDRB.U8 with byte offsets), the tail predicated. */
#ifndef AOT_KERNELS_LUT_H_
#define AOT_KERNELS_LUT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_lut_s8(const int8_t* input, int8_t* output, int32_t size, const int8_t* table);
void aot_lut_s8_word(const int8_t* input, int8_t* output, int32_t size, const int8_t* table);
void aot_lut_s8_mve(const int8_t* input, int8_t* output, int32_t size, const int8_t* table);

#ifdef __cplusplus
}
#endif

#endif
