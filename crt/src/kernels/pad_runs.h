/* Constant padding, shared by pad_s8.c, pad_s16.c, pad_s32.c and pad_f32.c: the input box is copied run by run with
 * memcpy, the padding filled between the runs.
 *
 * The 4-D shapes are regrouped so that dimension 3 is the innermost padded one with every unpadded dimension
 * after it merged in (its sizes count elements of the original tensors), so each "row" of the input box is one
 * contiguous run in both tensors (NHWC padded in H and W: in_w * channels elements per input row); without any
 * padding the whole tensor is one run.  The rows inside the box are visited in storage order, so the input is
 * read straight through, and the padding between two runs (right border of a row, left border of the next,
 * whole padded rows and planes) is one contiguous stretch of the output, filled at once. */
#ifndef AOT_KERNELS_PAD_RUNS_H_
#define AOT_KERNELS_PAD_RUNS_H_

#include <stdint.h>
#include <string.h>

struct aot_pad_runs {
    int32_t in[4], out[4], before[4];
};

static inline void aot_pad_runs_init(struct aot_pad_runs* r, const int32_t* in_dims, const int32_t* out_dims,
                                     const int32_t* pad_before)
{
    int32_t last = 3, inner = 1, d;
    while (last > 0 && in_dims[last] == out_dims[last] && pad_before[last] == 0) {
        inner *= in_dims[last];
        last--;
    }
    for (d = 0; d < 4; d++) {
        const int32_t src = d - (3 - last); /* original dimension shown as dimension d */
        r->in[d] = src < 0 ? 1 : in_dims[src];
        r->out[d] = src < 0 ? 1 : out_dims[src];
        r->before[d] = src < 0 ? 0 : pad_before[src];
    }
    r->in[3] *= inner;
    r->out[3] *= inner;
    r->before[3] *= inner;
}

/* Output index o along a dimension falls inside the copied input box. */
static inline int32_t aot_pad_inside(int32_t o, int32_t before, int32_t in)
{
    return o >= before && o - before < in;
}

/* n elements of `size` bytes (1, 2 or 4) set to the first `size` bytes of `pattern` (the kernels of 1- and
 * 2-byte elements repeat the element through all 4 bytes, so any byte order gives the element). */
static inline void aot_pad_fill(uint8_t* dst, int32_t n, int32_t size, uint32_t pattern)
{
    if (size == 1) {
        memset(dst, (int)(pattern & 0xffu), (size_t)n);
        return;
    }
    for (; n > 0; n--) {
        memcpy(dst, &pattern, (size_t)size);
        dst += size;
    }
}

/* The whole padded output for elements of `size` bytes (a constant in each kernel, so the multiplications and
 * the fill's branch fold away). */
static inline void aot_pad_walk(const void* input, void* output, const int32_t* in_dims, const int32_t* out_dims,
                                const int32_t* pad_before, int32_t size, uint32_t pattern)
{
    struct aot_pad_runs r;
    const uint8_t* src = (const uint8_t*)input;
    uint8_t* const out = (uint8_t*)output;
    int32_t o = 0, fill_from = 0; /* output cursor in elements; start of the padding not written yet */
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
                aot_pad_fill(out + fill_from * size, o - fill_from, size, pattern);
                memcpy(out + o * size, src, (size_t)(r.in[3] * size));
                src += r.in[3] * size;
                o += r.in[3];
                fill_from = o;
                o += r.out[3] - r.before[3] - r.in[3];
            }
        }
    }
    aot_pad_fill(out + fill_from * size, o - fill_from, size, pattern);
}

#endif /* AOT_KERNELS_PAD_RUNS_H_ */
