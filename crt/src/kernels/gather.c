/* GATHER with compile-time indices: copies whole inner rows. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/gather.h"

void aot_gather(const void* input, void* output, int32_t elem_size, int32_t outer, int32_t axis_size, int32_t inner,
                const int32_t* indices, int32_t num_indices)
{
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    const size_t row = (size_t)inner * (size_t)elem_size;
    int32_t o, i;
    for (o = 0; o < outer; o++) {
        for (i = 0; i < num_indices; i++) {
            const size_t src = ((size_t)o * (size_t)axis_size + (size_t)indices[i]) * row;
            memcpy(out + ((size_t)o * (size_t)num_indices + (size_t)i) * row, in + src, row);
        }
    }
}
