/* int8 2-D convolution for cores with Helium (MVE), with a portable fallback: im2col + GEMM (mve_s8.h).
 *
 * Output pixels are taken two at a time; each pixel's K = filter_h * filter_w * in_c inputs are a row of the GEMM.
 * A 1x1 filter without padding reads its rows straight from the input (any stride); other filters gather both
 * rows into scratch (2 * aot_mve_row_bytes: K, or K zero-padded to a multiple of 16 for the block loop), out-of-image
 * taps set to the input zero point, whose product with the weights the compiler folded into the bias.  Weights in the
 * layout of mve_s8.h; per output channel a multiplier and a TFLite shift (every value TFLite allows).  Requires filter
 * depth == in_c (no groups).  The body the entry points share is conv2d_s8_mve_pass.h; aot_conv2d_s8_mve_add, which
 * fuses a residual ADD, has a translation unit of its own (conv2d_s8_mve_add.c), so that a model without one does not
 * link its code.  aot_conv2d_s8_mve and aot_conv2d_s8_mve_add take layers whose every channel shifts right (or has
 * multiplier 0), as the compiler knows from the constants; the others call aot_conv2d_s8_mve_left (and _left_add),
 * the general pass, each in a unit of its own so that an image links it only when a layer needs it.  So do layers
 * whose im2col rows the block loop reads zero-padded for its K % 16 tail (aot_mve_row_bytes(k, out_c) != k: KWS's
 * 10x4 first layer) and which the first-layer form below does not take: the compiler calls aot_conv2d_s8_mve_tail
 * (conv2d_s8_mve_tail.c) for them, so that an image links that pass (4.4 KB on the Cortex-M55 at -O2, a second
 * inlined copy here before) only when a layer takes it.  aot_conv2d_s8_mve runs any other layer with unpadded rows
 * (K % 16 through the predicated tail of aot_mve_dot4), first layers through the first-layer form.
 */
#include "aot_sched.h"

/* mve_s8.h's block routines and conv2d_s8_mve_pass.h's im2col and gathers defined here with external linkage, for
 * conv2d_s8_mve_add.c too. */
#undef AOT_MVE_SHARED
#define AOT_MVE_SHARED
#include "conv2d_s8_mve_pass.h"

#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
/* Channel blocks of a first layer taken by aot_conv2d_s8_mve_first (up to 32 output channels): its sums' frame is
 * below the entry point's, so it is kept at 256 bytes (ResNet-8's stack within its budget). */
#define AOT_MVE_FIRST_BLOCKS 8

/* `pairs` pixel pairs along one output row whose windows are all inside the image, the first pair's windows at w0
 * and w0 + d, each next pair `step` bytes on: rows of 16 < K <= 32 taps (a first layer's 3x3 window on 3
 * channels) gathered into scratch, zero-padded to 32 bytes, then aot_mve_dot_blocks_tail1 and the requantization
 * (right shifts, per-channel constants, out_c a multiple of 4), outputs from out.  One call per run of pairs: the
 * block loop's arguments, the gather offsets and the constants set once, where the pixel loop found every pixel's
 * window again (three divisions) and rebuilt the arguments per pair -- about 230 instructions a pair.  w0 null:
 * one pair whose rows are already in scratch (windows leaving the image: aot_mve_gather_border). */
__attribute__((noinline)) static void aot_mve_gather_pairs(const int8_t* w0, int32_t d, int32_t step, int32_t pairs,
                                                           const uint8_t* offs, int32_t k, const int8_t* filter,
                                                           int32_t out_c, const struct aot_mve_rq* rq, int8_t* out,
                                                           int8_t* scratch)
{
    const struct aot_mve_rq q = *rq; /* a local copy: the int8 stores cannot alias it */
    const uint8x16_t o0 = vldrbq_u8(offs);
    const uint8x16_t o1 = vldrbq_u8(offs + 16);
    const mve_pred16_t pk = vctp8q((uint32_t)(k - 16));
    const int32_t nb = out_c >> 2; /* out_c <= 4 * AOT_MVE_FIRST_BLOCKS: one block call a pair */
    /* The clamp's vectors once per run of pairs (made per pair, GCC kept them, and the pointers, in the loop's frame).
     */
    const int32x4_t lo = vdupq_n_s32(q.act_min);
    const int32x4_t hi = vdupq_n_s32(q.act_max);
    int32_t sums[8 * AOT_MVE_FIRST_BLOCKS];
    struct aot_mve_blocks_args a;
    int32_t i;
    a.x0 = scratch;
    a.x1 = scratch + 32;
    a.passes = 1;
    a.sums = sums;
    a.tail = k - 16;
    a.blocks = nb;
    for (i = 0; i < pairs; i++) {
        if (w0) {
            vstrbq_s8(scratch, vldrbq_gather_offset_s8(w0, o0));
            vstrbq_s8(scratch + 16, vldrbq_gather_offset_z_s8(w0, o1, pk));
            vstrbq_s8(scratch + 32, vldrbq_gather_offset_s8(w0 + d, o0));
            vstrbq_s8(scratch + 48, vldrbq_gather_offset_z_s8(w0 + d, o1, pk));
        }
        if (k == 27) {
            aot_mve_dot_blocks_tail1_k27(&a, filter);
        } else {
            aot_mve_dot_blocks_tail1(&a, filter);
        }
        aot_mve_rq_pair_blocks(sums, nb, q.bias, q.multiplier, q.shift, q.out_offset, lo, hi, out, out + out_c);
        out += 2 * out_c;
        w0 = w0 ? w0 + step : w0;
    }
}
#endif

#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
/* A layer of 16 < K < 32 taps on a multiple of 4 (up to 32) output channels, right shifts, dilation 1 along x, an
 * even pixel count and windows that can be gathered at the image's border (aot_mve_gather_offsets returns 2): a
 * first layer, 3x3 on 3 channels.  Rows of 32 bytes (K zero-padded) through aot_mve_gather_pairs: runs of pairs
 * inside the image gathered there, the others by aot_mve_gather_row / aot_mve_gather_border.  A function of its
 * own with its own copies of the geometry and constants (given their addresses, GCC kept the other passes'
 * structs in memory, reloaded per pixel pair); returns 0, doing nothing, for a layer it does not take. */
AOT_HOT_INLINE int aot_conv2d_s8_mve_is_first(const struct aot_mve_geom* g, int32_t out_c)
{
    const int32_t k = g->filter_h * g->filter_w * g->in_c;
    return k > 16 && k < 32 && (out_c & 3) == 0 && out_c <= 4 * AOT_MVE_FIRST_BLOCKS && g->dilation_w == 1;
}

__attribute__((noinline)) static int
aot_conv2d_s8_mve_first(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                        const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output,
                        int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                        int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                        int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                        const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
    const int32_t k = filter_h * filter_w * in_c;
    const int32_t pixels = batches * out_h * out_w;
    uint8_t offs[48], dy[48], dx[48];
    int32_t p;
    AOT_CONV2D_S8_MVE_SETUP;
    rq.add = NULL;
    if ((pixels & 1) || aot_mve_gather_offsets(&g, k, offs, dy, dx) != 2) {
        return 0;
    }
    for (p = 0; p < pixels; p += 2) {
        const int8_t* w0 = aot_mve_window(&g, p);
        const int8_t* w1 = aot_mve_window(&g, p + 1);
        if (w0 && w1) {
            /* This pair and the next m of its output row (as the runs of aot_conv2d_s8_mve_pass). */
            const int32_t ox = p % out_w;
            const int32_t ox_fit = (in_w - filter_w + pad_left) / stride_w + 1;
            const int32_t ox_end = ox_fit < out_w ? ox_fit : out_w;
            const int32_t m = ox + 1 < ox_end ? (ox_end - ox - 2) >> 1 : 0;
            aot_mve_gather_pairs(w0, (int32_t)(w1 - w0), 2 * stride_w * in_c, m + 1, offs, k, filter, out_c, &rq,
                                 output + p * out_c, scratch);
            p += 2 * m;
            continue;
        }
        if (!aot_mve_gather_row(&g, p, offs, k, 32, scratch)) {
            aot_mve_gather_border(&g, p, offs, dy, dx, k, 32, scratch);
        }
        if (!aot_mve_gather_row(&g, p + 1, offs, k, 32, scratch + 32)) {
            aot_mve_gather_border(&g, p + 1, offs, dy, dx, k, 32, scratch + 32);
        }
        aot_mve_gather_pairs(0, 0, 0, 1, offs, k, filter, out_c, &rq, output + p * out_c, scratch);
    }
    return 1;
}
#endif

void aot_conv2d_s8_mve(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                       const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias, int8_t* output,
                       int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                       int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                       int32_t input_zero_point, int32_t output_offset, const int32_t* out_multiplier,
                       const int32_t* out_shift, int32_t act_min, int32_t act_max, int8_t* scratch)
{
    AOT_CONV2D_S8_MVE_SETUP;
    rq.add = NULL;
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
    if (aot_conv2d_s8_mve_is_first(&g, out_c) &&
        aot_conv2d_s8_mve_first(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h,
                                out_w, out_c, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left,
                                input_zero_point, output_offset, out_multiplier, out_shift, act_min, act_max,
                                scratch)) {
        return;
    }
#endif
    aot_conv2d_s8_mve_pass(&g, filter, output, batches, out_c, &rq, scratch, NULL, 0, 1, 0);
}
