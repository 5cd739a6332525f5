/* int8 RESIZE_BILINEAR on Helium (aot/kernels/resize_bilinear.h): per output pixel, four channels per vector
 * (VLDRB.S32 of each source pixel, VMUL + three VMLA by the weight products, the rounding shift, a narrowing
 * VSTRB), the last depth % 4 channels under a VCTP predicate.  Without MVE it is the portable kernel. */
#include "aot_sched.h"

#include "aot/kernels/resize_bilinear.h"

#include "resize_bilinear_body.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

static inline int32x4_t blend4(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d, int32_t w00, int32_t w10,
                               int32_t w01, int32_t w11)
{
    int32x4_t s = vmlaq_n_s32(vmlaq_n_s32(vmlaq_n_s32(vmulq_n_s32(a, w00), b, w10), c, w01), d, w11);
    s = vaddq_s32(s, vshrq_n_s32(s, 31));
    return vshrq_n_s32(vaddq_n_s32(s, 1 << 19), 20);
}

/* Not inlined into the walk: with its own registers the four pointers and weights stay out of the stack. */
__attribute__((noinline)) static void blend_mve(const int8_t* p00, const int8_t* p10, const int8_t* p01,
                                                const int8_t* p11, int32_t w00, int32_t w10, int32_t w01, int32_t w11,
                                                int8_t* out, int32_t depth)
{
    int32_t c = 0;
    for (; c + 4 <= depth; c += 4) {
        vstrbq_s32(out + c, blend4(vldrbq_s32(p00 + c), vldrbq_s32(p10 + c), vldrbq_s32(p01 + c), vldrbq_s32(p11 + c),
                                   w00, w10, w01, w11));
    }
    if (c < depth) {
        const mve_pred16_t p = vctp32q((uint32_t)(depth - c));
        vstrbq_p_s32(out + c,
                     blend4(vldrbq_z_s32(p00 + c, p), vldrbq_z_s32(p10 + c, p), vldrbq_z_s32(p01 + c, p),
                            vldrbq_z_s32(p11 + c, p), w00, w10, w01, w11),
                     p);
    }
}

void aot_resize_bilinear_s8_mve(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes,
                                int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int16_t* row_w,
                                const int32_t* cols, const int16_t* col_w)
{
    aot_resize_bilinear_walk(input, output, batches, image_bytes, depth, out_h, out_w, rows, row_w, cols, col_w,
                             blend_mve);
}

#else

void aot_resize_bilinear_s8_mve(const int8_t* input, int8_t* output, int32_t batches, int32_t image_bytes,
                                int32_t depth, int32_t out_h, int32_t out_w, const int32_t* rows, const int16_t* row_w,
                                const int32_t* cols, const int16_t* col_w)
{
    aot_resize_bilinear_s8(input, output, batches, image_bytes, depth, out_h, out_w, rows, row_w, cols, col_w);
}

#endif
