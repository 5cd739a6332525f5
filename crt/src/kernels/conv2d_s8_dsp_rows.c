/* The int8 DSP convolution's out-of-line helpers that every entry unit calls (conv2d_s8_dsp.c, _sat.c, _exact.c,
 * _k8.c ... _k27.c, _add.c): im2col of a pixel, the expansion of quads into the raw-word form and the channel pairs'
 * asm routine, once in the image whatever units its layers call (contract: conv2d_s8_dsp.c).
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

/* Word-at-a-time fill and copy of short runs (unaligned word accesses are single instructions on the DSP
 * cores; these runs are a few bytes, too short for a library call to pay off). */
static void aot_fill_bytes(int8_t* dst, int32_t n, int8_t value)
{
    const uint32_t word = 0x01010101u * (uint32_t)(uint8_t)value;
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        memcpy(dst + i, &word, 4);
    }
    for (; i < n; i++) {
        dst[i] = value;
    }
}

static void aot_copy_bytes(int8_t* dst, const int8_t* src, int32_t n)
{
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint32_t word = aot_read32(src + i);
        memcpy(dst + i, &word, 4);
    }
    for (; i < n; i++) {
        dst[i] = src[i];
    }
}

/* Copies filter row at input row iy (starting at input column x0) into bytes, zero point outside the image. */
static void aot_conv_gather_row(const struct aot_conv_geom* g, const int8_t* in_b, int32_t iy, int32_t x0,
                                int8_t* bytes)
{
    const int32_t row_bytes = g->filter_w * g->in_c;
    const int8_t zp = (int8_t)g->zero_point;
    int32_t kx;
    if (iy < 0 || iy >= g->in_h) {
        aot_fill_bytes(bytes, row_bytes, zp);
    } else if (g->dilation_w == 1) {
        const int32_t lo = x0 < 0 ? (-x0 < g->filter_w ? -x0 : g->filter_w) : 0;
        const int32_t hi0 = g->in_w - x0;
        const int32_t hi = hi0 > g->filter_w ? g->filter_w : (hi0 < lo ? lo : hi0);
        aot_fill_bytes(bytes, lo * g->in_c, zp);
        aot_copy_bytes(bytes + lo * g->in_c, in_b + (iy * g->in_w + x0 + lo) * g->in_c, (hi - lo) * g->in_c);
        aot_fill_bytes(bytes + hi * g->in_c, (g->filter_w - hi) * g->in_c, zp);
    } else {
        for (kx = 0; kx < g->filter_w; kx++) {
            const int32_t ix = x0 + kx * g->dilation_w;
            if (ix < 0 || ix >= g->in_w) {
                aot_fill_bytes(bytes + kx * g->in_c, g->in_c, zp);
            } else {
                aot_copy_bytes(bytes + kx * g->in_c, in_b + (iy * g->in_w + ix) * g->in_c, g->in_c);
            }
        }
    }
}

uint32_t* aot_conv_expand(const int8_t* src, int32_t quads, uint32_t* dst, int32_t* sum)
{
    return aot_conv_expand_body(src, quads, dst, sum);
}

/* The same for `rows` runs of `quads` quads, `step` bytes apart in the input (a window inside the image: one call
 * per pixel instead of one per filter row). */
static uint32_t* aot_conv_expand_rows(const int8_t* src, int32_t step, int32_t rows, int32_t quads, uint32_t* dst,
                                      int32_t* sum)
{
    int32_t s = *sum;
    for (; rows > 0; rows--) {
        dst = aot_conv_expand_body(src, quads, dst, &s);
        src += step;
    }
    *sum = s;
    return dst;
}

/* `n` slots of the expanded zero point (xa, xc). */
static uint32_t* aot_conv_fill(uint32_t* dst, int32_t n, uint32_t xa, uint32_t xc)
{
    for (; n > 0; n--) {
        dst[0] = xa;
        dst[1] = xc;
        dst += AOT_CONV_QW;
    }
    return dst;
}

/* Expands output pixel `pixel` into slot `slot` (0 to AOT_CONV_PX - 1) of the tile buffer; returns
 * 128 * sum(x0 + x2). */
int32_t aot_conv_im2col(const struct aot_conv_geom* g, int32_t pixel, uint32_t* pairs, int32_t slot, int8_t* gather)
{
    const int32_t k = g->filter_h * g->filter_w * g->in_c;
    const int32_t quads = k / 4;
    const int32_t tail = k % 4;
    const int32_t row_bytes = g->filter_w * g->in_c;
    const int32_t ox = pixel % g->out_w;
    const int32_t oy = (pixel / g->out_w) % g->out_h;
    const int8_t* in_b = g->input + (pixel / (g->out_w * g->out_h)) * g->in_h * g->in_w * g->in_c;
    const int32_t y0 = oy * g->stride_h - g->pad_top;
    const int32_t x0 = ox * g->stride_w - g->pad_left;
    uint32_t* dst = pairs + 2 * slot;
    int32_t sum = 0, ky, kx;

    if (g->in_c % 4 == 0) {
        /* Every tap is whole quads, expanded straight from the input; a filter row inside the image is one
         * run of filter_w * in_c bytes (no dilation); taps outside it take the expanded zero point. */
        const uint32_t zp_word = 0x01010101u * (uint32_t)(uint8_t)(int8_t)g->zero_point;
        const uint32_t zxa = aot_expand_xa(zp_word), zxc = aot_expand_xc(zp_word);
        const int32_t cq = g->in_c / 4;
        int32_t zq = 0;
        if (g->dilation_w == 1 && x0 >= 0 && x0 + g->filter_w <= g->in_w && y0 >= 0 &&
            y0 + (g->filter_h - 1) * g->dilation_h < g->in_h) {
            aot_conv_expand_rows(in_b + (y0 * g->in_w + x0) * g->in_c, g->dilation_h * g->in_w * g->in_c, g->filter_h,
                                 cq * g->filter_w, dst, &sum);
            return sum * 128;
        }
        for (ky = 0; ky < g->filter_h; ky++) {
            const int32_t iy = y0 + ky * g->dilation_h;
            const int8_t* row = in_b + iy * g->in_w * g->in_c;
            if (iy < 0 || iy >= g->in_h) {
                dst = aot_conv_fill(dst, cq * g->filter_w, zxa, zxc);
                zq += cq * g->filter_w;
            } else if (g->dilation_w == 1 && x0 >= 0 && x0 + g->filter_w <= g->in_w) {
                dst = aot_conv_expand(row + x0 * g->in_c, cq * g->filter_w, dst, &sum);
            } else {
                for (kx = 0; kx < g->filter_w; kx++) {
                    const int32_t ix = x0 + kx * g->dilation_w;
                    if (ix < 0 || ix >= g->in_w) {
                        dst = aot_conv_fill(dst, cq, zxa, zxc);
                        zq += cq;
                    } else {
                        dst = aot_conv_expand(row + ix * g->in_c, cq, dst, &sum);
                    }
                }
            }
        }
        return (sum + zq * 2 * g->zero_point) * 128;
    }
    if (g->dilation_w == 1 && row_bytes % 4 == 0) {
        /* Filter rows are whole quads: rows inside the image expand straight from the input, the others
         * from a copy padded with the zero point. */
        const int32_t inside_x = x0 >= 0 && x0 + g->filter_w <= g->in_w;
        if (inside_x && y0 >= 0 && y0 + (g->filter_h - 1) * g->dilation_h < g->in_h) {
            aot_conv_expand_rows(in_b + (y0 * g->in_w + x0) * g->in_c, g->dilation_h * g->in_w * g->in_c, g->filter_h,
                                 row_bytes / 4, dst, &sum);
            return sum * 128;
        }
        for (ky = 0; ky < g->filter_h; ky++) {
            const int32_t iy = y0 + ky * g->dilation_h;
            if (inside_x && iy >= 0 && iy < g->in_h) {
                dst = aot_conv_expand(in_b + (iy * g->in_w + x0) * g->in_c, row_bytes / 4, dst, &sum);
            } else {
                aot_conv_gather_row(g, in_b, iy, x0, gather);
                dst = aot_conv_expand(gather, row_bytes / 4, dst, &sum);
            }
        }
        return sum * 128;
    }
    {
        /* Rows inside the image (the common case) are one run of bytes each. */
        const int32_t inside_x = g->dilation_w == 1 && x0 >= 0 && x0 + g->filter_w <= g->in_w;
        const int32_t inside = inside_x && y0 >= 0 && y0 + (g->filter_h - 1) * g->dilation_h < g->in_h;
        if (inside && row_bytes < 4) {
            /* Runs of 1 to 3 bytes (one to three input channels, as in an image model's first layer): without
             * the per-row checks and the word loop, the copy is the few byte moves it needs. */
            const int8_t* const first = in_b + (y0 * g->in_w + x0) * g->in_c;
            const int32_t step = g->dilation_h * g->in_w * g->in_c;
            if (row_bytes == 3) {
                aot_copy_rows(gather, first, step, g->filter_h, 3);
            } else if (row_bytes == 2) {
                aot_copy_rows(gather, first, step, g->filter_h, 2);
            } else {
                aot_copy_rows(gather, first, step, g->filter_h, 1);
            }
        } else {
            for (ky = 0; ky < g->filter_h; ky++) {
                const int32_t iy = y0 + ky * g->dilation_h;
                if (inside_x && iy >= 0 && iy < g->in_h) {
                    aot_copy_bytes(gather + ky * row_bytes, in_b + (iy * g->in_w + x0) * g->in_c, row_bytes);
                } else {
                    aot_conv_gather_row(g, in_b, iy, x0, gather + ky * row_bytes);
                }
            }
        }
    }
    dst = aot_conv_expand(gather, quads, dst, &sum);
    if (tail) {
        /* The K % 4 leftover values as one plain word per pixel after the tile's quads, expanded as (x0, x2)
         * and (x1, x3); the bytes past the tail meet zero weights (aot_conv_tail), so their value is irrelevant. */
        const uint32_t v = aot_read32(gather + 4 * quads);
        pairs[AOT_CONV_QW * quads + 2 * slot] = aot_sxtb16(v);
        pairs[AOT_CONV_QW * quads + 2 * slot + 1] = aot_sxtb16_ror8(v);
    }
    return sum * 128;
}

#if AOT_CONV_PAIRS_ASM
/* Every channel pair of one tile (out0_end > out[0]: at least one pair); the job is read by the asm (r0). */
AOT_CONV_NAKED void aot_conv_pairs(const struct aot_conv_job* job __attribute__((unused)))
{
    __asm__ volatile(
        /* The job onto the frame; the passes' entry: 72 bytes per quad skipped (-quads mod 4), Thumb bit set. */
        "push {r4-r11, lr}\n\t"
        "sub sp, sp, #56\n\t"
        "ldm r0!, {r1-r7}\n\t"
        "stm sp, {r1-r7}\n\t"
        "ldm r0, {r1-r7}\n\t"
        "add r8, sp, #28\n\t"
        "stm r8, {r1-r7}\n\t"
        "mov r12, r7\n\t"
        "rsb r6, r6, #0\n\t"
        "and r6, r6, #3\n\t"
        "movs r7, #72\n\t"
        "mul r6, r6, r7\n\t"
        "adr.w r7, 10f\n\t"
        "add r6, r6, r7\n\t"
        "orr r6, r6, #1\n\t"
        "str r6, [sp, #48]\n\t"
        /* A pair: accumulators at the biases, the inputs from the tile's start, into the passes. */
        "1:\n\t"
        "ldr r6, [sp, #24]\n\t"
        "ldrd r0, r1, [r6], #8\n\t"
        "str r6, [sp, #24]\n\t"
        "mov r2, r0\n\t"
        "mov r3, r1\n\t"
        "mov r4, r0\n\t"
        "mov r5, r1\n\t"
        "ldr lr, [sp, #40]\n\t"
        "ldr pc, [sp, #48]\n\t"
        "10:\n\t" AOT_CONV_QUAD_FIXED AOT_CONV_QUAD_FIXED AOT_CONV_QUAD_FIXED AOT_CONV_QUAD_FIXED
        "ldr r10, [sp, #44]\n\t"
        "cmp lr, r10\n\t"
        "bne 10b\n\t"
        /* 2 acc - 2 corr, then the requantization of channel 0 (r0, r2, r4) and channel 1 (r1, r3, r5). */
        "ldrd r6, r7, [sp, #28]\n\t"
        "ldr r8, [sp, #36]\n\t"
        "rsb r0, r6, r0, lsl #1\n\t"
        "rsb r1, r6, r1, lsl #1\n\t"
        "rsb r2, r7, r2, lsl #1\n\t"
        "rsb r3, r7, r3, lsl #1\n\t"
        "rsb r4, r8, r4, lsl #1\n\t"
        "rsb r5, r8, r5, lsl #1\n\t"
        "ldrd r6, r7, [sp, #16]\n\t"
        "ldrd r8, r9, [r6], #8\n\t"
        "ldrd r10, r11, [r7], #8\n\t"
        "strd r6, r7, [sp, #16]\n\t"
        "rbit r6, r10\n\t"
        "clz r6, r6\n\t"
        "rbit r7, r11\n\t"
        "clz r7, r7\n\t" AOT_CONV_REQ("r0", "r8", "r10", "r6") AOT_CONV_REQ("r2", "r8", "r10", "r6")
            AOT_CONV_REQ("r4", "r8", "r10", "r6") AOT_CONV_REQ("r1", "r9", "r11", "r7")
                AOT_CONV_REQ("r3", "r9", "r11", "r7") AOT_CONV_REQ("r5", "r9", "r11", "r7")
        /* The pixels' two bytes each; the next pair, or out. */
        "ldm sp, {r6, r7, r8, r9}\n\t"
        "strb r0, [r6], #1\n\t"
        "strb r1, [r6], #1\n\t"
        "strb r2, [r7], #1\n\t"
        "strb r3, [r7], #1\n\t"
        "strb r4, [r8], #1\n\t"
        "strb r5, [r8], #1\n\t"
        "stm sp, {r6, r7, r8}\n\t"
        "cmp r6, r9\n\t"
        "bne 1b\n\t"
        "add sp, sp, #56\n\t"
        "pop {r4-r11, pc}\n\t");
}
#endif
