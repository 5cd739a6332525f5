/* int32 constant padding: the runs of pad_runs.h, the padding filled element by element. */
#include "aot_sched.h"

#include "aot/kernels/pad.h"
#include "pad_runs.h"

void aot_pad_s32(const int32_t* input, int32_t* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, int32_t pad_value)
{
    aot_pad_walk(input, output, in_dims, out_dims, pad_before, 4, (uint32_t)pad_value);
}
