/* int8 RESIZE_BILINEAR, portable (aot/kernels/resize_bilinear.h): 32-bit sums, one channel at a time.  It is also
 * the kernel of the cores with the DSP extension: the weights products need 21 bits, so SMLAD's 16-bit lanes would
 * take the vertical blend only, and pairing two rows' values lane by lane costs what it saves. */
#include "aot_sched.h"

#include "aot/kernels/resize_bilinear.h"

#include "resize_bilinear_body.h"

/* Not inlined into the walk: with its own registers the pointers and weights stay out of the stack. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
blend_s8(const int8_t* p00, const int8_t* p10, const int8_t* p01, const int8_t* p11, int32_t w00, int32_t w10,
         int32_t w01, int32_t w11, int8_t* out, int32_t depth)
{
    int32_t c;
    for (c = 0; c < depth; c++) {
        out[c] = aot_resize_round20(p00[c] * w00 + p10[c] * w10 + p01[c] * w01 + p11[c] * w11);
    }
}

void aot_resize_bilinear_s8(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes, int32_t depth,
                            int32_t out_h, int32_t out_w, const int32_t* rows, const int16_t* row_w,
                            const int32_t* cols, const int16_t* col_w)
{
    aot_resize_bilinear_walk(input, output, batches, image_bytes, depth, out_h, out_w, rows, row_w, cols, col_w,
                             blend_s8);
}
