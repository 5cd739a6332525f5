/* The gather walk shared by the TRANSPOSE_CONV kernels (aot/kernels/transpose_conv.h): which input rows (or
 * columns) reach output row o.  Input row i reaches it through filter row f = o + pad - i * stride when
 * 0 <= f < filter size, so the kernels walk i down from aot_tconv_first() while f stays below the filter size. */
#ifndef AOT_KERNELS_TRANSPOSE_CONV_TAPS_H_
#define AOT_KERNELS_TRANSPOSE_CONV_TAPS_H_

#include <stdint.h>

/* The largest input index reaching output index o (pad >= 0, so o + pad >= 0), capped at the last input. */
static inline int32_t aot_tconv_first(int32_t o, int32_t pad, int32_t stride, int32_t in_size)
{
    const int32_t i = (o + pad) / stride;
    return i < in_size ? i : in_size - 1;
}

#endif
