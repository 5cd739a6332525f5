/* Comparisons (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL), logic (LOGICAL_AND, LOGICAL_OR,
 * LOGICAL_NOT) and SELECT_V2, with up to 4-D broadcasting as in aot/kernels/binary.h (dims[4] is the output
 * shape, each input's strides are 0 where it broadcasts). bool tensors are uint8_t holding 0 or 1.
 *
 * int8 compares as TFLite Micro does: each input's (value - zero point) << 8 is multiplied by that input's own
 * scale as a quantized multiplier (below one), and the two results are compared.  With equal scales and zero points
 * of at least 1/128 one stored step is still at least one step after the rescaling, so comparing the stored values
 * gives the same answer, which the compiler then asks for (rescale 0); with smaller scales neighbouring values
 * rescale to the same integer and compare equal, as in TFLite Micro.  */
#ifndef AOT_KERNELS_COMPARE_H_
#define AOT_KERNELS_COMPARE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_CMP_EQ 0
#define AOT_CMP_NE 1
#define AOT_CMP_LT 2
#define AOT_CMP_LE 3
#define AOT_CMP_GT 4
#define AOT_CMP_GE 5

/* Per-input rescaling of the int8 comparisons: offset = -zero point, multiplier and (non-positive) shift. */
struct aot_compare_s8_params {
    int32_t rescale;
    int32_t offset1, multiplier1, shift1;
    int32_t offset2, multiplier2, shift2;
};

void aot_compare_f32(int32_t op, const float* in1, const float* in2, uint8_t* output, const int32_t* dims,
                     const int32_t* in1_strides, const int32_t* in2_strides);
void aot_compare_s32(int32_t op, const int32_t* in1, const int32_t* in2, uint8_t* output, const int32_t* dims,
                     const int32_t* in1_strides, const int32_t* in2_strides);
void aot_compare_s16(int32_t op, const int16_t* in1, const int16_t* in2, uint8_t* output, const int32_t* dims,
                     const int32_t* in1_strides, const int32_t* in2_strides);
/* bool operands (EQUAL, NOT_EQUAL). */
void aot_compare_bool(int32_t op, const uint8_t* in1, const uint8_t* in2, uint8_t* output, const int32_t* dims,
                      const int32_t* in1_strides, const int32_t* in2_strides);
void aot_compare_s8(int32_t op, const int8_t* in1, const int8_t* in2, uint8_t* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides, const struct aot_compare_s8_params* p);

#define AOT_LOGICAL_AND 0
#define AOT_LOGICAL_OR  1
void aot_logical_bool(int32_t op, const uint8_t* in1, const uint8_t* in2, uint8_t* output, const int32_t* dims,
                      const int32_t* in1_strides, const int32_t* in2_strides);
void aot_logical_not_bool(const uint8_t* input, uint8_t* output, int32_t size);

/* SELECT_V2: output = cond ? x : y, the three broadcast to the output (elem_size bytes per element). */
void aot_select(const uint8_t* cond, const void* x, const void* y, void* output, int32_t elem_size, const int32_t* dims,
                const int32_t* cond_strides, const int32_t* x_strides, const int32_t* y_strides);

#ifdef __cplusplus
}
#endif

#endif
