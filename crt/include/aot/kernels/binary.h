/* Element-wise binary operations with up to 4-D broadcasting, shared by ADD / SUB / MUL / DIV / PRELU (float32)
 * and the integer arithmetic of ONNX models (int32).
 *
 * dims[4] is the output shape (left-padded with 1s); in1_strides/in2_strides give each input's element stride
 * per output dimension (0 = broadcast).  `op` is one of the AOT_BINARY_* codes.
 *
 * float32: IEEE semantics (x / 0 is inf or NaN), then the result is clamped to [act_min, act_max];
 *          PRELU is in1 >= 0 ? in1 : in1 * in2.
 * int32:   two's-complement wrap-around for ADD / SUB / MUL (as numpy / ONNX integer arithmetic), DIV truncates
 *          toward zero (x / 0 gives 0 and INT32_MIN / -1 gives INT32_MIN instead of undefined behaviour);
 *          MIN / MAX are exact.  */
#ifndef AOT_KERNELS_BINARY_H_
#define AOT_KERNELS_BINARY_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_BINARY_ADD   0
#define AOT_BINARY_SUB   1
#define AOT_BINARY_MUL   2
#define AOT_BINARY_DIV   3
#define AOT_BINARY_PRELU 4
#define AOT_BINARY_MIN   5
#define AOT_BINARY_MAX   6
/* float32 only, as TFLite Micro: floor(x / y) divided in double; x - floor(x / y) * y from fmodf. */
#define AOT_BINARY_FLOOR_DIV 7
#define AOT_BINARY_FLOOR_MOD 8
/* float32 only: powf(x, y) (TFLite's POW, ONNX Pow). */
#define AOT_BINARY_POW 9

void aot_binary_f32(int32_t op, const float* in1, const float* in2, float* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides, float act_min, float act_max);

/* The same arguments for AOT_BINARY_FLOOR_DIV / AOT_BINARY_FLOOR_MOD / AOT_BINARY_POW: their own entry point, because
 * they link libm (floor, fmodf, powf) and double division, which float arithmetic alone must not pull in. */
void aot_binary_math_f32(int32_t op, const float* in1, const float* in2, float* output, const int32_t* dims,
                         const int32_t* in1_strides, const int32_t* in2_strides, float act_min, float act_max);

/* +infinity and -infinity: the operand of a MINIMUM / MAXIMUM with an open bound (TensorFlow's clip_by_value) and
 * the bounds of its no-op clamp. Generated code holds no infinite float literal; it points here. */
extern const float aot_f32_infinities[2];

void aot_binary_s32(int32_t op, const int32_t* in1, const int32_t* in2, int32_t* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides);

/* MAXIMUM / MINIMUM (op AOT_BINARY_MAX or AOT_BINARY_MIN) on int8 and int16: compares the stored values. */
void aot_minmax_s8(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims,
                   const int32_t* in1_strides, const int32_t* in2_strides);
void aot_minmax_s16(int32_t op, const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides);

/* The same on two int8 inputs of the output's shape, `size` elements: SSUB8 + SEL four at a time on the DSP cores,
 * VMAX / VMIN sixteen at a time on Helium (each the portable walker on a core without its extension). */
void aot_minmax_s8_flat_dsp(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size);
void aot_minmax_s8_flat_mve(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size);

#ifdef __cplusplus
}
#endif

#endif
