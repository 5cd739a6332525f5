/* EMBEDDING_LOOKUP (aot/kernels/embedding_lookup.h). */
#include "aot_sched.h"

#include <string.h>

#include "aot/errors.h"
#include "aot/kernels/embedding_lookup.h"

int32_t aot_embedding_lookup(const int32_t* ids, int32_t num_ids, const void* value, int32_t rows, int32_t row_bytes,
                             void* output)
{
    int32_t i;
    for (i = 0; i < num_ids; i++) {
        if (ids[i] < 0 || ids[i] >= rows) {
            return AOT_ERR_KERNEL;
        }
        memcpy((uint8_t*)output + (size_t)i * (size_t)row_bytes,
               (const uint8_t*)value + (size_t)ids[i] * (size_t)row_bytes, (size_t)row_bytes);
    }
    return AOT_OK;
}

int32_t aot_embedding_lookup_s8_f32(const int32_t* ids, int32_t num_ids, const int8_t* value, int32_t rows,
                                    int32_t columns, float scale, float* output)
{
    int32_t i, c;
    for (i = 0; i < num_ids; i++) {
        if (ids[i] < 0 || ids[i] >= rows) {
            return AOT_ERR_KERNEL;
        }
        for (c = 0; c < columns; c++) {
            output[i * columns + c] = scale * (float)value[ids[i] * columns + c];
        }
    }
    return AOT_OK;
}
