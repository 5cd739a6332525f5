/* Integer element-type conversion with an offset (wrap-around, no implementation-defined conversions). */
#include "aot_sched.h"

#include "aot/kernels/cast.h"

static uint32_t load(const void* p, int32_t type, int32_t i)
{
    switch (type) {
    case AOT_CAST_INT8:
        return (uint32_t)(int32_t)((const int8_t*)p)[i];
    case AOT_CAST_INT32:
        return (uint32_t)((const int32_t*)p)[i];
    case AOT_CAST_INT16:
        return (uint32_t)(int32_t)((const int16_t*)p)[i];
    case AOT_CAST_UINT32:
        return ((const uint32_t*)p)[i];
    default:
        return (uint32_t)((const uint8_t*)p)[i];
    }
}

static void store(void* p, int32_t type, int32_t i, uint32_t v)
{
    switch (type) {
    case AOT_CAST_INT8: {
        const int32_t b = (int32_t)(v & 0xFFu);
        ((int8_t*)p)[i] = (int8_t)(b > 127 ? b - 256 : b);
        break;
    }
    case AOT_CAST_INT32:
        ((int32_t*)p)[i] = v <= 0x7FFFFFFFu ? (int32_t)v : -(int32_t)(0xFFFFFFFFu - v) - 1;
        break;
    case AOT_CAST_BOOL:
        ((uint8_t*)p)[i] = (uint8_t)(v != 0u);
        break;
    case AOT_CAST_INT16: {
        const int32_t h = (int32_t)(v & 0xFFFFu);
        ((int16_t*)p)[i] = (int16_t)(h > 32767 ? h - 65536 : h);
        break;
    }
    case AOT_CAST_UINT32:
        ((uint32_t*)p)[i] = v;
        break;
    default:
        ((uint8_t*)p)[i] = (uint8_t)(v & 0xFFu);
        break;
    }
}

/* float to integer: truncation toward zero as C's (and TFLite's) conversion; NaN gives 0 and values beyond int32
 * saturate (where the conversion itself would be undefined). */
static uint32_t from_float(float f)
{
    if (!(f == f)) {
        return 0u;
    }
    if (f >= 2147483647.0f) {
        return 0x7FFFFFFFu;
    }
    if (f <= -2147483648.0f) {
        return 0x80000000u;
    }
    return (uint32_t)(int32_t)f;
}

void aot_cast(const void* input, int32_t input_type, void* output, int32_t output_type, int32_t size, int32_t offset)
{
    int32_t i;
    if (input_type == AOT_CAST_FLOAT32 && output_type == AOT_CAST_FLOAT32) {
        /* TFLite's float32 -> float32 CAST: the values as they are (bit patterns copied, NaNs included). */
        for (i = 0; i < size; i++) {
            ((uint32_t*)output)[i] = ((const uint32_t*)input)[i];
        }
        return;
    }
    if (input_type == AOT_CAST_FLOAT32) {
        for (i = 0; i < size; i++) {
            const float f = ((const float*)input)[i];
            if (output_type == AOT_CAST_BOOL) {
                ((uint8_t*)output)[i] = (uint8_t)(f != 0.0f);
            } else {
                store(output, output_type, i, from_float(f) + (uint32_t)offset);
            }
        }
        return;
    }
    if (output_type == AOT_CAST_FLOAT32) {
        /* Integer to float: the value (unsigned for uint32 input), as TFLite's static_cast gives it. */
        for (i = 0; i < size; i++) {
            const uint32_t v = load(input, input_type, i) + (uint32_t)offset;
            ((float*)output)[i] = input_type == AOT_CAST_UINT32 ? (float)v
                                  : v <= 0x7FFFFFFFu            ? (float)(int32_t)v
                                                                : -(float)(0xFFFFFFFFu - v) - 1.0f;
        }
        return;
    }
    for (i = 0; i < size; i++) {
        store(output, output_type, i, load(input, input_type, i) + (uint32_t)offset);
    }
}
