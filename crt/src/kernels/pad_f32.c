/* float32 constant padding: the runs of pad_runs.h, the padding filled element by element. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/pad.h"
#include "pad_runs.h"

void aot_pad_f32(const float* input, float* output, const int32_t* in_dims, const int32_t* out_dims,
                 const int32_t* pad_before, float pad_value)
{
    uint32_t pattern;
    memcpy(&pattern, &pad_value, sizeof pattern);
    aot_pad_walk(input, output, in_dims, out_dims, pad_before, 4, pattern);
}
