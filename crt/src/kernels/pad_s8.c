/* int8 constant padding: the runs of pad_runs.h, the padding filled with memset. */
#include "aot_sched.h"

#include "aot/kernels/pad.h"
#include "pad_runs.h"

void aot_pad_s8(const int8_t* input, int8_t* output, const int32_t* in_dims, const int32_t* out_dims,
                const int32_t* pad_before, int32_t pad_value)
{
    aot_pad_walk(input, output, in_dims, out_dims, pad_before, 1, (uint32_t)(uint8_t)(int8_t)pad_value);
}
