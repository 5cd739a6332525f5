/* CAST: integer element-type conversion with an added offset, out = wrap(in + offset).
 *
 * Types are the AOT_CAST_* codes; bool is one byte holding 0 or 1 (a non-zero value converts to 1).  Values
 * that do not fit the output type wrap around (two's complement, as numpy and ONNX integer casts do).  The
 * offset is how uint8 quantized data becomes int8 data with the same real values (offset -128, zero point
 * - 128) and back (+128).  */
#ifndef AOT_KERNELS_CAST_H_
#define AOT_KERNELS_CAST_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_CAST_INT8    0
#define AOT_CAST_UINT8   1
#define AOT_CAST_INT32   2
#define AOT_CAST_BOOL    3
#define AOT_CAST_INT16   4
#define AOT_CAST_UINT32  5
#define AOT_CAST_FLOAT32 6 /* to float: the integer's value as C rounds it; from float: truncated toward zero */

void aot_cast(const void* input, int32_t input_type, void* output, int32_t output_type, int32_t size, int32_t offset);

#ifdef __cplusplus
}
#endif

#endif
