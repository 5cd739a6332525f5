/* int16 constant padding (16x8 models): the runs of pad_runs.h, the padding filled element by element. */
#include "aot_sched.h"

#include "aot/kernels/pad.h"
#include "pad_runs.h"

void aot_pad_s16(const int16_t* input, int16_t* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, int32_t pad_value)
{
    aot_pad_walk(input, output, in_dims, out_dims, pad_before, 2, (uint32_t)(uint16_t)(int16_t)pad_value * 0x10001u);
}
