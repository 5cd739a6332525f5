/* A user kernel for the CUSTOM operator "ClampFloor" of tests/models/user_custom_int8.tflite
 * (aot_model_library(custom_ops = {"ClampFloor": ":clamp_floor"})): out = max(in, floor[0]) on the raw int8
 * values, the floor a constant input of the same quantization.  Its init hook checks once what the model hands
 * it (types, shapes, quantization, the custom options) so the run function need not. */
#include <stddef.h>
#include <stdint.h>

#include "aot/errors.h"
#include "aot/user_kernel.h"
#include "user_kernels.h"

int32_t clamp_floor_init_calls = 0;

int32_t clamp_floor_init(const struct aot_uk_params* params)
{
    const struct aot_uk_tensor* in;
    const struct aot_uk_tensor* fl;
    const struct aot_uk_tensor* out;
    clamp_floor_init_calls++;
    if (params->num_inputs != 2 || params->num_outputs != 1 || params->options_size == 0) {
        return CLAMP_FLOOR_BAD_MODEL;
    }
    in = &params->inputs[0];
    fl = &params->inputs[1];
    out = &params->outputs[0];
    if (in->type != AOT_UK_INT8 || fl->type != AOT_UK_INT8 || out->type != AOT_UK_INT8 || !fl->is_const ||
        params->const_inputs[1] == NULL || aot_uk_num_elements(fl) != 1 ||
        aot_uk_num_elements(in) != aot_uk_num_elements(out)) {
        return CLAMP_FLOOR_BAD_MODEL;
    }
    /* Raw comparison is only right when all three share one quantization. */
    if (in->quant_count != 1 || fl->quant_count != 1 || out->quant_count != 1 || in->scales[0] != out->scales[0] ||
        in->scales[0] != fl->scales[0] || in->zero_points[0] != out->zero_points[0] ||
        in->zero_points[0] != fl->zero_points[0]) {
        return CLAMP_FLOOR_BAD_MODEL;
    }
    return AOT_OK;
}

int32_t clamp_floor_s8(const struct aot_uk_params* params, const void* const* inputs, void* const* outputs,
                       void* scratch)
{
    const int8_t* in = aot_uk_in_s8(inputs, 0);
    const int8_t floor = aot_uk_in_s8(inputs, 1)[0];
    int8_t* out = aot_uk_out_s8(outputs, 0);
    const int32_t n = aot_uk_num_elements(&params->outputs[0]);
    int32_t i;
    (void)scratch;
    for (i = 0; i < n; ++i) {
        out[i] = in[i] > floor ? in[i] : floor;
    }
    return AOT_OK;
}
