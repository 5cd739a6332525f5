/* Element-wise int8 table lookup: output[i] = table[(uint8_t)input[i]], the 256-entry table computed at compile
 * time (ELU's int8 form, as TFLite Micro builds it).  */
#ifndef AOT_KERNELS_LUT_H_
#define AOT_KERNELS_LUT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_lut_s8(const int8_t* input, int8_t* output, int32_t size, const int8_t* table);

#ifdef __cplusplus
}
#endif

#endif
