/* The plane form of the Helium depthwise convolution (depthwise_conv2d_s8_mve_plane.c describes it), shared by its
 * entry points: aot_depthwise_conv2d_s8_mve_plane (any stride and shifts: depthwise_conv2d_s8_mve_plane.c) and
 * aot_depthwise_conv2d_s8_mve_plane_s1 (stride_w 1, every shift a right shift: _plane_s1.c, KWS's and MobileNet's
 * layers), each in a translation unit of its own so that an image links only the forms its layers take (without
 * -ffunction-sections a whole object links).  Everything here is static; the units include aot_sched.h first.
 */
#ifndef AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_PLANE_H_
#define AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_PLANE_H_

#include <stddef.h>

#include "aot/kernels/depthwise_conv2d.h"
#include "mve_s8.h"

#define AOT_DWP_GROUP 8

/* Plane row width: the image and its left padding, and wide enough that the right-most tap of a row's last window
 * (which can wrap past the row end) lands in the next row's left padding. */
static int32_t aot_dwp_plane_w(int32_t in_w, int32_t out_w, int32_t filter_w, int32_t stride_w, int32_t dilation_w,
                               int32_t pad_left)
{
    const int32_t last = (out_w - 1) * stride_w + (filter_w - 1) * dilation_w;
    const int32_t need = last - pad_left + 1;
    return in_w + pad_left > need ? in_w + pad_left : need;
}

#if defined(__ARM_FEATURE_MVE)

/* Every output row of four channels (aot_dwp_channels4's common case), with CLAMP the activation clamp of q2.  The
 * four sums go into q2 by two moves of two registers each (VMOV Qd[2], Qd[0], Rt, Rt2 puts Rt in lane 0 and Rt2 in
 * lane 2, as GCC's vcreateq emits it); a row's pixels are a low-overhead loop (DLS / LE on lr, out_w from k[15]),
 * the rows an outer loop in the same block: the plane pointers move on by k[14] (row_step) between rows, the output
 * pointer needs nothing (the rows of one image follow each other) and is the loop's counter (k[16]: its end); the
 * output offset and the channel count stay in registers (reloaded per pixel they cost 2 of its 25 instructions).  On
 * KWS's 5-pixel rows the row change in C cost about 20 instructions, here 8. */
#define AOT_DWP_IMAGE_ASM(REQ, CLAMP)                                                                                  \
    __asm__ volatile("2:\n\t"                                                                                          \
                     "ldr %[n], [%[k], #60]\n\t"                                                                       \
                     "dls lr, lr\n"                                                                                    \
                     "1:\n\t"                                                                                          \
                     "vldrb.s8 q3, [%[p0]], #1\n\t"                                                                    \
                     "vmladav.s8 %[a0], q3, %q[w0]\n\t"                                                                \
                     "vldrb.s8 q3, [%[p1]], #1\n\t"                                                                    \
                     "vmladav.s8 %[a1], q3, %q[w1]\n\t"                                                                \
                     "vldrb.s8 q3, [%[p2]], #1\n\t"                                                                    \
                     "vmladav.s8 %[a2], q3, %q[w2]\n\t"                                                                \
                     "vldrb.s8 q3, [%[p3]], #1\n\t"                                                                    \
                     "vmladav.s8 %[a3], q3, %q[w3]\n\t"                                                                \
                     "vmov q2[2], q2[0], %[a0], %[a2]\n\t"                                                             \
                     "vmov q2[3], q2[1], %[a1], %[a3]\n\t"                                                             \
                     "vadd.i32 q2, q2, %q[bias]\n\t" REQ "vldrw.32 q3, [%[k]]\n\t"                                     \
                     "vrshl.s32 q2, q2, q3\n\t"                                                                        \
                     "vadd.i32 q2, q2, %[off]\n\t" CLAMP "vstrb.32 q2, [%[out]]\n\t"                                   \
                     "add %[out], %[out], %[ch]\n\t"                                                                   \
                     "le lr, 1b\n\t"                                                                                   \
                     "ldr %[a0], [%[k], #56]\n\t"                                                                      \
                     "add %[p0], %[p0], %[a0]\n\t"                                                                     \
                     "add %[p1], %[p1], %[a0]\n\t"                                                                     \
                     "add %[p2], %[p2], %[a0]\n\t"                                                                     \
                     "add %[p3], %[p3], %[a0]\n\t"                                                                     \
                     "ldr %[a1], [%[k], #64]\n\t"                                                                      \
                     "cmp %[out], %[a1]\n\t"                                                                           \
                     "bne 2b"                                                                                          \
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [p0] "+r"(p0), [p1] "+r"(p1),   \
                       [p2] "+r"(p2), [p3] "+r"(p3), [out] "+r"(o), [n] "=&r"(n)                                       \
                     : [w0] "w"(w0), [w1] "w"(w1), [w2] "w"(w2), [w3] "w"(w3), [bias] "w"(bias), [mult] "w"(mult),     \
                       [k] "r"(kp), [off] "r"(offset), [ch] "r"(channels)                                              \
                     : "q2", "q3", "memory", "cc")

/* The requantization before the rounding right shift: right shifts only (aot_mve_requant_right), or any shifts
 * (aot_mve_requant: the left shifts max(shift, 0) at k + 80, the -1 fix-up where v < 0 masked by the -1s of k + 96,
 * v & mask keeping v's sign bit only where the shift is a right shift). */
#define AOT_DWP_REQ_RIGHT                                                                                              \
    "vqrdmulh.s32 q2, q2, %q[mult]\n\t"                                                                                \
    "vshr.s32 q3, q2, #31\n\t"                                                                                         \
    "vqadd.s32 q2, q2, q3\n\t"
#define AOT_DWP_REQ_ANY                                                                                                \
    "vldrw.32 q3, [%[k], #80]\n\t"                                                                                     \
    "vshl.s32 q2, q2, q3\n\t"                                                                                          \
    "vqrdmulh.s32 q2, q2, %q[mult]\n\t"                                                                                \
    "vldrw.32 q3, [%[k], #96]\n\t"                                                                                     \
    "vand q3, q3, q2\n\t"                                                                                              \
    "vshr.s32 q3, q3, #31\n\t"                                                                                         \
    "vqadd.s32 q2, q2, q3\n\t"
#define AOT_DWP_CLAMP_INT8                                                                                             \
    "vqshl.s32 q2, q2, #24\n\t"                                                                                        \
    "vshr.s32 q2, q2, #24\n\t"
#define AOT_DWP_CLAMP_ANY                                                                                              \
    "vldrw.32 q3, [%[k], #16]\n\t"                                                                                     \
    "vmax.s32 q2, q2, q3\n\t"                                                                                          \
    "vldrw.32 q3, [%[k], #32]\n\t"                                                                                     \
    "vmin.s32 q2, q2, q3\n\t"

#if defined(__OPTIMIZE__)
/* The layer's constants for aot_dwp_group4, set once per image (as arguments and recomputed per call they cost
 * about 70 instructions a call: 64 calls on MobileNet's 3x3x256 layer, 9 pixels each). */
struct aot_dwp_layer {
    int32_t k[28]; /* AOT_DWP_IMAGE_ASM's block: the clamp bounds and steps here, the shifts and k[16] per call */
    const int8_t* filter;
    const struct aot_mve_rq* rq;
    uint8_t lane_tap[16];
    int32_t taps, plane_bytes, image_bytes, offset, channels;
    mve_pred16_t tap_lanes;
    int right, full;
};

/* aot_dwp_channels4's common case (four channels c..c+3, stride_w 1), a function of its own so that the general
 * loop's register allocation does not depend on it. */
static __attribute__((noinline)) void aot_dwp_group4(struct aot_dwp_layer* layer, const int8_t* planes, int32_t c,
                                                     int8_t* out)
{
    const int32_t plane_bytes = layer->plane_bytes;
    const int8_t* p0 = planes;
    const int8_t* p1 = planes + plane_bytes;
    const int8_t* p2 = planes + 2 * plane_bytes;
    const int8_t* p3 = planes + 3 * plane_bytes;
    const uint8x16_t lane_tap = vldrbq_u8(layer->lane_tap);
    const mve_pred16_t tap_lanes = layer->tap_lanes;
    const int32_t taps = layer->taps;
    const int8_t* f = layer->filter + c * taps;
    const int8x16_t w0 = vldrbq_gather_offset_z_s8(f, lane_tap, tap_lanes);
    const int8x16_t w1 = vldrbq_gather_offset_z_s8(f + taps, lane_tap, tap_lanes);
    const int8x16_t w2 = vldrbq_gather_offset_z_s8(f + 2 * taps, lane_tap, tap_lanes);
    const int8x16_t w3 = vldrbq_gather_offset_z_s8(f + 3 * taps, lane_tap, tap_lanes);
    const int32x4_t bias = vldrwq_s32(layer->rq->bias + c);
    const int32x4_t mult = vldrwq_s32(layer->rq->multiplier + c);
    const int32x4_t sh = vldrwq_s32(layer->rq->shift + c);
    const int32_t offset = layer->offset, channels = layer->channels;
    /* One block for the whole image (GCC keeps the invariants of aot_dwp_channels4's C loop on the stack and
     * reloads them per pixel): the sums pinned to even registers (VMLADAV takes no others), the
     * shifts, clamp bounds and steps read from `k`. */
    int32_t* const k = layer->k;
    register int32_t a0 __asm__("r0");
    register int32_t a1 __asm__("r2");
    register int32_t a2 __asm__("r4");
    register int32_t a3 __asm__("r6");
    int32_t* kp = k;
    /* The pixels of a row: a low-overhead loop (DLS / LE) on lr. */
    register int32_t n __asm__("lr");
    /* VSTRB.32 takes a low base register. */
    register int8_t* o __asm__("r1") = out;
    k[16] = (int32_t)(uintptr_t)(out + layer->image_bytes);
    if (layer->right) {
        vstrwq_s32(k, sh);
    } else {
        const int32x4_t zero = vdupq_n_s32(0);
        vstrwq_s32(k, vminq_s32(sh, zero));
        vstrwq_s32(k + 20, vmaxq_s32(sh, zero));
        vstrwq_s32(k + 24, vshrq_n_s32(vminq_s32(sh, zero), 31));
    }
    /* The clamp to all of int8 as a saturating shift to the top byte and back. */
    if (layer->right && layer->full) {
        AOT_DWP_IMAGE_ASM(AOT_DWP_REQ_RIGHT, AOT_DWP_CLAMP_INT8);
    } else if (layer->right) {
        AOT_DWP_IMAGE_ASM(AOT_DWP_REQ_RIGHT, AOT_DWP_CLAMP_ANY);
    } else if (layer->full) {
        AOT_DWP_IMAGE_ASM(AOT_DWP_REQ_ANY, AOT_DWP_CLAMP_INT8);
    } else {
        AOT_DWP_IMAGE_ASM(AOT_DWP_REQ_ANY, AOT_DWP_CLAMP_ANY);
    }
}

/* The layer block of aot_dwp_group4 for one image. */
static void aot_dwp_layer_init(struct aot_dwp_layer* layer, const int8_t* filter, int32_t taps, uint8x16_t lane_tap,
                               mve_pred16_t tap_lanes, const struct aot_mve_rq* rq, int32_t out_h, int32_t out_w,
                               int32_t channels, int32_t plane_w, int32_t plane_bytes, int32_t stride_h, int right)
{
    vstrwq_s32(layer->k + 4, vdupq_n_s32(rq->act_min));
    vstrwq_s32(layer->k + 8, vdupq_n_s32(rq->act_max));
    layer->k[14] = stride_h * plane_w - out_w;
    layer->k[15] = out_w;
    layer->filter = filter;
    layer->rq = rq;
    vstrbq_u8(layer->lane_tap, lane_tap);
    layer->taps = taps;
    layer->plane_bytes = plane_bytes;
    layer->image_bytes = out_h * out_w * channels;
    layer->offset = rq->out_offset;
    layer->channels = channels;
    layer->tap_lanes = tap_lanes;
    layer->right = right;
    layer->full = rq->act_min == -128 && rq->act_max == 127;
}
#endif

/* Four channels c..c+3 (m of them valid: m == 4 a constant at the call site when whole) of every output pixel of
 * one image, from the planes at `planes` (plane k of channel c + k). */
AOT_ALWAYS_INLINE void aot_dwp_channels4(const int8_t* planes, int32_t plane_bytes, int32_t plane_w,
                                         const int8_t* filter, int32_t taps, uint8x16_t lane_tap,
                                         mve_pred16_t tap_lanes, const struct aot_mve_rq* rq, int32_t c, int32_t m,
                                         int8_t* out, int32_t out_h, int32_t out_w, int32_t channels, int32_t stride_h,
                                         int32_t stride_w, int right)
{
    const mve_pred16_t p = m == 4 ? 0xFFFF : vctp32q((uint32_t)m);
    const int32_t row_step = stride_h * plane_w - out_w * stride_w;
    /* A missing channel reads plane 0 against zero weights; its lane is never stored. */
    const int8_t* p0 = planes;
    const int8_t* p1 = planes + (m > 1 ? plane_bytes : 0);
    const int8_t* p2 = planes + (m > 2 ? 2 * plane_bytes : 0);
    const int8_t* p3 = planes + (m > 3 ? 3 * plane_bytes : 0);
    const int8x16_t w0 = vldrbq_gather_offset_z_s8(filter + c * taps, lane_tap, tap_lanes);
    const int8x16_t w1 = vldrbq_gather_offset_z_s8(filter + (c + (m > 1)) * taps, lane_tap, m > 1 ? tap_lanes : 0);
    const int8x16_t w2 =
        vldrbq_gather_offset_z_s8(filter + (c + (m > 2 ? 2 : 0)) * taps, lane_tap, m > 2 ? tap_lanes : 0);
    const int8x16_t w3 =
        vldrbq_gather_offset_z_s8(filter + (c + (m > 3 ? 3 : 0)) * taps, lane_tap, m > 3 ? tap_lanes : 0);
    const int32x4_t bias = vldrwq_z_s32(rq->bias + c, p);
    const int32x4_t mult = vldrwq_z_s32(rq->multiplier + c, p);
    /* Only the weights, bias and multiplier stay in q registers (eight in all with a load and the sums); the shifts
     * are reloaded and the clamp bounds duplicated per pixel rather than spilled. */
    const int32_t* shift = rq->shift + c;
    const int32_t offset = rq->out_offset, lo = rq->act_min, hi = rq->act_max;
    int32_t oy, ox;
    out += c;
    for (oy = 0; oy < out_h; oy++) {
        for (ox = 0; ox < out_w; ox++) {
            const int32_t a0 = vmladavq_s8(vldrbq_s8(p0), w0);
            const int32_t a1 = vmladavq_s8(vldrbq_s8(p1), w1);
            const int32_t a2 = vmladavq_s8(vldrbq_s8(p2), w2);
            const int32_t a3 = vmladavq_s8(vldrbq_s8(p3), w3);
            const int32x4_t s = m == 4 ? vldrwq_s32(shift) : vldrwq_z_s32(shift, p);
            int32x4_t v = vdupq_n_s32(a0);
            v = vsetq_lane_s32(a1, v, 1);
            v = vsetq_lane_s32(a2, v, 2);
            v = vsetq_lane_s32(a3, v, 3);
            v = vaddq_s32(v, bias);
            v = right ? aot_mve_requant_right(v, mult, s) : aot_mve_requant(v, mult, s);
            v = vaddq_n_s32(v, offset);
            v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
            if (m == 4) {
                vstrbq_s32(out, v);
            } else {
                vstrbq_p_s32(out, v, p);
            }
            out += channels;
            p0 += stride_w;
            p1 += stride_w;
            p2 += stride_w;
            p3 += stride_w;
        }
        p0 += row_step;
        p1 += row_step;
        p2 += row_step;
        p3 += row_step;
    }
}

/* Eight channels (n of them, c0 on) into their planes: per pixel one load of the 8 bytes and one scatter.  Out of
 * line: inlined in the group loops its row loop reloads three values from the stack per row. */
static __attribute__((noinline)) void aot_dwp_copy8(const int8_t* in_b, int32_t in_w, int32_t channels, int32_t rows,
                                                    int32_t c0, int32_t n, uint16x8_t to_plane, int32_t plane_w,
                                                    int32_t pad_top, int32_t pad_left, int8_t* scratch)
{
    const mve_pred16_t pn = vctp16q((uint32_t)n);
    int32_t y, x;
    for (y = 0; y < rows; y++) {
        const int8_t* src = in_b + y * in_w * channels + c0;
        int8_t* dst = scratch + (y + pad_top) * plane_w + pad_left;
        if (n == AOT_DWP_GROUP) {
            for (x = 0; x < in_w; x++) {
                vstrbq_scatter_offset_s16(dst + x, to_plane, vldrbq_s16(src));
                src += channels;
            }
        } else {
            for (x = 0; x < in_w; x++) {
                vstrbq_scatter_offset_p_s16(dst + x, to_plane, vldrbq_z_s16(src, pn), pn);
                src += channels;
            }
        }
    }
}

#if defined(__OPTIMIZE__)
/* The last m < 4 channels of a stride_w 1 image (aot_dwp_channels4 out of line: inlined, its pointers and
 * constants cost the group loop of aot_dwp_image about 30 instructions per aot_dwp_group4 call). */
static __attribute__((noinline)) void aot_dwp_tail(const int8_t* planes, int32_t plane_bytes, int32_t plane_w,
                                                   const int8_t* filter, int32_t taps, uint8x16_t lane_tap,
                                                   mve_pred16_t tap_lanes, const struct aot_mve_rq* rq, int32_t c,
                                                   int32_t m, int8_t* out, int32_t out_h, int32_t out_w,
                                                   int32_t channels, int32_t stride_h, int right)
{
    aot_dwp_channels4(planes, plane_bytes, plane_w, filter, taps, lane_tap, tap_lanes, rq, c, m, out, out_h, out_w,
                      channels, stride_h, 1, right);
}
#endif

/* Every channel group of one image: transposed into planes eight channels at a time, then computed. */
AOT_ALWAYS_INLINE void aot_dwp_image(const int8_t* in_b, int32_t in_h, int32_t in_w, int32_t channels,
                                     const int8_t* filter, int32_t taps, uint8x16_t lane_tap, mve_pred16_t tap_lanes,
                                     const struct aot_mve_rq* rq, int8_t* out_b, int32_t out_h, int32_t out_w,
                                     int32_t stride_h, int32_t stride_w, int32_t pad_top, int32_t pad_left,
                                     int32_t plane_w, int32_t plane_rows, int32_t plane_bytes, int8_t* scratch,
                                     int right)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    /* Lane k of a pixel's 8 channels goes to plane k. */
    const uint16x8_t to_plane = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)plane_bytes);
    const int32_t rows = in_h < plane_rows - pad_top ? in_h : plane_rows - pad_top;
    int32_t c0;
#if defined(__OPTIMIZE__)
    struct aot_dwp_layer layer;
    if (stride_w == 1) {
        aot_dwp_layer_init(&layer, filter, taps, lane_tap, tap_lanes, &q, out_h, out_w, channels, plane_w, plane_bytes,
                           stride_h, right);
        for (c0 = 0; c0 < channels; c0 += AOT_DWP_GROUP) {
            const int32_t n = channels - c0 < AOT_DWP_GROUP ? channels - c0 : AOT_DWP_GROUP;
            int32_t c;
            aot_dwp_copy8(in_b, in_w, channels, rows, c0, n, to_plane, plane_w, pad_top, pad_left, scratch);
            for (c = c0; c + 4 <= c0 + n; c += 4) {
                aot_dwp_group4(&layer, scratch + (c - c0) * plane_bytes, c, out_b + c);
            }
            if (c < c0 + n) {
                aot_dwp_tail(scratch + (c - c0) * plane_bytes, plane_bytes, plane_w, filter, taps, lane_tap, tap_lanes,
                             &q, c, c0 + n - c, out_b, out_h, out_w, channels, stride_h, right);
            }
        }
        return;
    }
#endif
    for (c0 = 0; c0 < channels; c0 += AOT_DWP_GROUP) {
        const int32_t n = channels - c0 < AOT_DWP_GROUP ? channels - c0 : AOT_DWP_GROUP;
        int32_t c;
        aot_dwp_copy8(in_b, in_w, channels, rows, c0, n, to_plane, plane_w, pad_top, pad_left, scratch);
        for (c = c0; c + 4 <= c0 + n; c += 4) {
            aot_dwp_channels4(scratch + (c - c0) * plane_bytes, plane_bytes, plane_w, filter, taps, lane_tap, tap_lanes,
                              &q, c, 4, out_b, out_h, out_w, channels, stride_h, stride_w, right);
        }
        if (c < c0 + n) {
            aot_dwp_channels4(scratch + (c - c0) * plane_bytes, plane_bytes, plane_w, filter, taps, lane_tap, tap_lanes,
                              &q, c, c0 + n - c, out_b, out_h, out_w, channels, stride_h, stride_w, right);
        }
    }
}

#endif

#endif /* AOT_KERNELS_DEPTHWISE_CONV2D_S8_MVE_PLANE_H_ */
