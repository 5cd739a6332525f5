/* Shared by the constant padding kernels (pad_s8.c, pad_f32.c): the 4-D shapes regrouped so that dimension 3
 * is the innermost padded one with every unpadded dimension after it merged in (its sizes count elements of
 * the original tensors).  Without any padding the whole tensor is one run. */
#ifndef AOT_KERNELS_PAD_RUNS_H_
#define AOT_KERNELS_PAD_RUNS_H_

#include <stdint.h>

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

#endif /* AOT_KERNELS_PAD_RUNS_H_ */
