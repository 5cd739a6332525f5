/* ARG_MAX / ARG_MIN along one axis: the input seen as [outer, axis_size, inner], the output [outer, inner] int32
 * indices; ties go to the first index, as in TFLite Micro.  */
#ifndef AOT_KERNELS_ARG_MINMAX_H_
#define AOT_KERNELS_ARG_MINMAX_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_arg_minmax_f32(const float* input, int32_t* output, int32_t outer, int32_t axis_size, int32_t inner,
                        int32_t is_max);
void aot_arg_minmax_s8(const int8_t* input, int32_t* output, int32_t outer, int32_t axis_size, int32_t inner,
                       int32_t is_max);

/* int8 over the last axis (inner == 1): `rows` rows of axis_size values, each reduced in one pass that keeps, per
 * byte lane, the running extreme and where it first occurred (four lanes per word with SSUB8 + SEL on the DSP
 * extension, sixteen per vector with VCMP + VPSEL on Helium), then folds the lanes to the first index of the
 * extreme.  Their instruction count depends on the shape only, not on the data, so the compiler's cost model prices
 * them exactly.  Portable code on other cores. */
void aot_arg_minmax_s8_last_dsp(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max);
void aot_arg_minmax_s8_last_mve(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max);

#ifdef __cplusplus
}
#endif

#endif
