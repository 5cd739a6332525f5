/* PAD / PADV2 with constant paddings, up to 4-D.
 *
 * in_dims/out_dims are the shapes left-padded to 4-D with 1s, pad_before the
 * leading padding per dimension (out = in + before + after, checked at
 * compile time).  Every output element outside the copied input box gets
 * pad_value: the output zero point for int8 PAD, 0 for int16, int32 and float PAD,
 * or the PADV2 constant (int8 PADV2 constants share the output quantization).  */
#ifndef AOT_KERNELS_PAD_H_
#define AOT_KERNELS_PAD_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_pad_s8(const int8_t* input, int8_t* output, const int32_t* in_dims, const int32_t* out_dims,
                const int32_t* pad_before, int32_t pad_value);

void aot_pad_s16(const int16_t* input, int16_t* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, int32_t pad_value);
void aot_pad_s32(const int32_t* input, int32_t* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, int32_t pad_value);
void aot_pad_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, float pad_value);

#ifdef __cplusplus
}
#endif

#endif
