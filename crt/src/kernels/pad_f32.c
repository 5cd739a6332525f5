/* float32 constant padding: the input box is copied run by run with memcpy (pad_s8.c explains the runs), the
 * padding filled element by element. */
#include <string.h>

#include "aot/kernels/pad.h"
#include "pad_runs.h"

static void aot_pad_fill_f32(float* dst, int32_t n, float value)
{
    int32_t i;
    for (i = 0; i < n; i++) {
        dst[i] = value;
    }
}

void aot_pad_f32(const float* input, float* output, const int32_t* in_dims,
                 const int32_t* out_dims, const int32_t* pad_before, float pad_value)
{
    struct aot_pad_runs r;
    const float* src = input;
    int32_t o = 0, fill_from = 0; /* output cursor; start of the padding not written yet */
    int32_t o0, o1, o2;

    aot_pad_runs_init(&r, in_dims, out_dims, pad_before);
    for (o0 = 0; o0 < r.out[0]; o0++) {
        if (!aot_pad_inside(o0, r.before[0], r.in[0])) {
            o += r.out[1] * r.out[2] * r.out[3];
            continue;
        }
        for (o1 = 0; o1 < r.out[1]; o1++) {
            if (!aot_pad_inside(o1, r.before[1], r.in[1])) {
                o += r.out[2] * r.out[3];
                continue;
            }
            for (o2 = 0; o2 < r.out[2]; o2++) {
                if (!aot_pad_inside(o2, r.before[2], r.in[2])) {
                    o += r.out[3];
                    continue;
                }
                o += r.before[3];
                aot_pad_fill_f32(output + fill_from, o - fill_from, pad_value);
                memcpy(output + o, src, (size_t)r.in[3] * sizeof(float));
                src += r.in[3];
                o += r.in[3];
                fill_from = o;
                o += r.out[3] - r.before[3] - r.in[3];
            }
        }
    }
    aot_pad_fill_f32(output + fill_from, o - fill_from, pad_value);
}
