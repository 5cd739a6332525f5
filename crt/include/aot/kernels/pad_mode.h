/* PAD_MODE: ONNX Pad modes that repeat input values, up to 4-D, for any element size.
 *
 * in_dims/out_dims are the shapes left-padded to 4-D with 1s, pad_before the leading padding per dimension.
 * An output coordinate o maps to input coordinate i = o - pad_before, brought inside [0, n) by:
 *   AOT_PAD_REFLECT: mirror without repeating the edge (numpy 'reflect'; periodic with period 2 (n - 1)),
 *   AOT_PAD_EDGE:    clamp to the nearest edge,
 *   AOT_PAD_WRAP:    i mod n (the opposite side).  */
#ifndef AOT_KERNELS_PAD_MODE_H_
#define AOT_KERNELS_PAD_MODE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_PAD_REFLECT 0
#define AOT_PAD_EDGE    1
#define AOT_PAD_WRAP    2
/* TFLite's MIRROR_PAD SYMMETRIC: the edge is repeated (reflect excludes it). */
#define AOT_PAD_SYMMETRIC 3

void aot_pad_mode(const void* input, void* output, int32_t element_size, const int32_t* in_dims,
                  const int32_t* out_dims, const int32_t* pad_before, int32_t mode);

#ifdef __cplusplus
}
#endif

#endif
