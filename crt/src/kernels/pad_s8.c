/* int8 constant padding: the input box is copied run by run with memcpy, the padding filled with memset.
 *
 * Trailing dimensions without padding are merged into the innermost padded one, so each "row" of the input
 * box is one contiguous run in both tensors (NHWC padded in H and W: in_w * channels bytes per input row).
 * The rows inside the box are visited in storage order, so the input is read straight through.  The padding
 * between two runs (right border of a row, left border of the next, whole padded rows and planes) is one
 * contiguous stretch of the output and takes one memset.
 */
#include <string.h>

#include "aot/kernels/pad.h"
#include "pad_runs.h"

void aot_pad_s8(const int8_t* input, int8_t* output, const int32_t* in_dims,
                const int32_t* out_dims, const int32_t* pad_before, int32_t pad_value)
{
    struct aot_pad_runs r;
    const int8_t* src = input;
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
                memset(output + fill_from, pad_value, (size_t)(o - fill_from));
                memcpy(output + o, src, (size_t)r.in[3]);
                src += r.in[3];
                o += r.in[3];
                fill_from = o;
                o += r.out[3] - r.before[3] - r.in[3];
            }
        }
    }
    memset(output + fill_from, pad_value, (size_t)(o - fill_from));
}
