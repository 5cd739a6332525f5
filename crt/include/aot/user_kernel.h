/* The user-kernel ABI: how generated code calls a kernel the application provides.
 *
 * Two uses (docs/user-kernels.md):
 *
 * 1. A CUSTOM operator of the model (e.g. "MyOp") mapped to a user function with
 *    `aotc compile --custom_op MyOp=my_op[,scratch=N][,init=my_op_init]`
 *    (Bazel: aot_model_library(custom_ops = {"MyOp": ":my_op"}), where the target my_op is an
 *    aot_user_kernel; a label of another package is written with its package path).
 *    The function has the type aot_user_kernel_fn:
 *
 *        int32_t my_op(const struct aot_uk_params* params, const void* const* inputs,
 *                      void* const* outputs, void* scratch);
 *
 *    - inputs[i] / outputs[i]: the operator's tensors in model order, element type params->inputs[i].type
 *      (AOT_UK_INT8 -> int8_t, ...; the aot_uk_* accessors below cast them).  A constant input points to its
 *      const array in flash; an omitted optional input is NULL (type AOT_UK_NONE).
 *    - params: a const block in flash, fixed at compile time: every tensor's shape and quantization, the
 *      operator's custom options bytes exactly as the model stores them, the scratch size.
 *    - scratch: params->scratch_size bytes (the `scratch=N` of the mapping) aligned to 16, planned in the model's
 *      workspace like any tensor and live only during this call; NULL when no scratch was declared.
 *    - returns AOT_OK (0), or any other value: <prefix>_run() then stops and returns that value unchanged, and
 *      <prefix>_failed_op() returns params->op_index.  Use AOT_ERR_KERNEL or codes of your own (keep them
 *      distinct from aot/errors.h, e.g. below AOT_ERR_USER_BASE).
 *
 * 2. A built-in operator routed to a user function (`--offload CONV_2D=npu_conv2d`, by type, `#N` for operator N
 *    or `name:GLOB` for an output tensor name): the function receives exactly the arguments of the portable
 *    CRT kernel the operator would have called (its precomputed parameter block, folded biases, weight layout;
 *    declared in aot/kernels/<kernel>.h) and returns int32_t with the meaning above.  The generated .c declares
 *    it with that kernel's parameter list; the kernel each operator stands in for is named in the generated
 *    comment and in the report (<prefix>.json, "user_kernels").
 *
 * Init hooks (`init=my_op_init`), of type aot_user_init_fn, run in operator order from <prefix>_init(), which a
 * model has only when one of its kernels declares a hook: program an accelerator, load a command stream, set
 * base addresses.  <prefix>_run() before a successful <prefix>_init() returns AOT_ERR_NOT_INITIALIZED.
 *
 * Nothing here allocates; every block is const.  Plain C99, no 64-bit types.
 */
#ifndef AOT_USER_KERNEL_H_
#define AOT_USER_KERNEL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes a user kernel may use for its own failures are at most this value. */
#define AOT_ERR_USER_BASE (-1000)

/* Maximum rank of a tensor described to a user kernel. */
#define AOT_UK_MAX_DIMS 6

/* Element types (struct aot_uk_tensor.type). */
#define AOT_UK_NONE    0 /* omitted optional input: pointer is NULL */
#define AOT_UK_INT8    1
#define AOT_UK_UINT8   2
#define AOT_UK_INT16   3
#define AOT_UK_INT32   4
#define AOT_UK_UINT32  5
#define AOT_UK_FLOAT32 6
#define AOT_UK_BOOL    7 /* one byte per element, 0 or 1 */

/* One tensor of the operator, as the model declares it. */
struct aot_uk_tensor {
    int32_t type;                  /* AOT_UK_* */
    int32_t rank;                  /* number of valid entries of dims */
    int32_t dims[AOT_UK_MAX_DIMS]; /* shape, outermost first */
    int32_t bytes;                 /* size of the buffer in bytes */
    int32_t is_const;              /* 1: a constant of the model (in flash), 0: activation */
    /* Quantization: quant_count == 0 for none, 1 per tensor, else one entry per channel of quant_axis. */
    int32_t quant_count;
    int32_t quant_axis;
    const float* scales;        /* quant_count entries, or NULL */
    const int32_t* zero_points; /* quant_count entries, or NULL */
};

/* Everything about one operator that is known at compile time (a const block in flash). */
struct aot_uk_params {
    int32_t op_index; /* the operator's index in the model */
    int32_t num_inputs;
    int32_t num_outputs;
    const struct aot_uk_tensor* inputs;  /* num_inputs entries */
    const struct aot_uk_tensor* outputs; /* num_outputs entries */
    const uint8_t* options;              /* the CUSTOM operator's options bytes, verbatim (NULL if none) */
    int32_t options_size;
    int32_t scratch_size;            /* bytes at the kernel's scratch pointer */
    const void* const* const_inputs; /* per input: its const data if is_const, else NULL (for init hooks) */
};

typedef int32_t (*aot_user_kernel_fn)(const struct aot_uk_params* params, const void* const* inputs,
                                      void* const* outputs, void* scratch);
typedef int32_t (*aot_user_init_fn)(const struct aot_uk_params* params);

/* Typed views of the pointer arrays (no conversion: the element type is params->inputs[i].type). */
static inline const int8_t* aot_uk_in_s8(const void* const* inputs, int32_t i)
{
    return (const int8_t*)inputs[i];
}
static inline const int16_t* aot_uk_in_s16(const void* const* inputs, int32_t i)
{
    return (const int16_t*)inputs[i];
}
static inline const int32_t* aot_uk_in_s32(const void* const* inputs, int32_t i)
{
    return (const int32_t*)inputs[i];
}
static inline const uint8_t* aot_uk_in_u8(const void* const* inputs, int32_t i)
{
    return (const uint8_t*)inputs[i];
}
static inline const float* aot_uk_in_f32(const void* const* inputs, int32_t i)
{
    return (const float*)inputs[i];
}
static inline int8_t* aot_uk_out_s8(void* const* outputs, int32_t i)
{
    return (int8_t*)outputs[i];
}
static inline int16_t* aot_uk_out_s16(void* const* outputs, int32_t i)
{
    return (int16_t*)outputs[i];
}
static inline int32_t* aot_uk_out_s32(void* const* outputs, int32_t i)
{
    return (int32_t*)outputs[i];
}
static inline uint8_t* aot_uk_out_u8(void* const* outputs, int32_t i)
{
    return (uint8_t*)outputs[i];
}
static inline float* aot_uk_out_f32(void* const* outputs, int32_t i)
{
    return (float*)outputs[i];
}

/* Number of elements of a tensor. */
static inline int32_t aot_uk_num_elements(const struct aot_uk_tensor* t)
{
    int32_t n = 1;
    int32_t i;
    for (i = 0; i < t->rank; ++i) {
        n *= t->dims[i];
    }
    return n;
}

#ifdef __cplusplus
}
#endif

#endif /* AOT_USER_KERNEL_H_ */
