/* The float32 convolution, depthwise (depth multiplier 1) and fully connected kernels of the FPU cores and Helium
 * (src/kernels/conv2d_f32_gemm.c, depthwise_conv2d_f32_vec.c, fully_connected_f32_gemm.c and _row.c) against a plain C
 * sum in the reference kernel's order, each step fmaf (correctly rounded, as VFMA.F32), the bias after the sum, then
 * the clamp: the kernels promise these values exactly, so the outputs are compared with == (a zero of either sign
 * matching), and the floats after the output with its sentinel.  Under QEMU on the Cortex-M4F, M7, M33 and M55 and
 * on the host (the C forms).  Depthwise 3x3 layers at strides 1 and 2, SAME and VALID, widths 1 to 17 (Helium's
 * column pairs inside the image, the single column slides at the edges; from 5 columns SAME at stride 1 Helium's
 * lanes of one channel, every range, an upper bound a pass after: strips at both edges, interior strips, a strip over
 * its neighbour, the odd last column's segments), heights 1 to 9 (the slide's rows three at a time and a remainder),
 * channel counts 1 to 13 (part groups), and a few wider and taller layers (25x5, up to 17 columns); fully connected
 * layers of depths 1 to 70 (the 8-tap passes and their tails), unit counts 1 to 17 (whole and part blocks), batches
 * 1 to 3, in the blocked layout and (host, Helium) the wide one; convolutions (a first layer's 10x4 filters on one
 * channel at stride 2, gathered windows at every edge or, on Helium, the padded image's rows4 tiles over output rows
 * of 1 to 7 pixels; a 4x4 filter dilated 2 along y; 3x2 on 2 channels at stride 1; 3x3 on 2 channels; 1x1 in place;
 * KWS's first layer) to whole and part blocks, nothing written past the compiler's scratch; without bias; the ranges
 * none, ReLU, ReLU6 and (depthwise) [-2.5, 2.5].  Exit code 0 iff none differs. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "aot/kernels/conv2d.h"
#include "aot/kernels/depthwise_conv2d.h"
#include "aot/kernels/fully_connected.h"

/* The depthwise entry point: by default the one that links the FPU cores' single-column slide of 3 tap columns
 * (depthwise_conv2d_f32_vec3.c); the _no3 firmware calls the kernel alone, whose such columns take the pairs of
 * pixels (its weak reference unresolved). */
#ifndef AOT_F32_TEST_DW
#define AOT_F32_TEST_DW aot_depthwise_conv2d_f32_vec3
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define BLOCK 8
#else
#define BLOCK 4 /* the FPU cores' block; the C forms take any */
#endif

/* Helium's fully connected layout (the host's C form takes it too; the FPU cores' builds do not). */
#define FC_WIDE 16
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
static const int32_t fc_layouts[] = {FC_WIDE, BLOCK};
#elif defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_FMA)
static const int32_t fc_layouts[] = {BLOCK};
#else
static const int32_t fc_layouts[] = {BLOCK, FC_WIDE};
#endif

#define MAX_IN  (9 * 17 * 13)
#define MAX_W   (3 * 3 * 13)
#define MAX_FC  (3 * 70)
#define MAX_FCW (70 * 24)

static float in[MAX_IN], wt[MAX_W], bias[24], out[MAX_IN + 16], want[MAX_IN], want_b[MAX_IN];
static float fc_in[MAX_FC], fc_w[70 * 17], fc_blocks[MAX_FCW], fc_out[3 * 17 + 16], fc_want[3 * 17];
#define MAX_CIN  (49 * 10 * 2)
#define MAX_K    (10 * 4 * 3)
#define MAX_COUT 16
#define MAX_OUT  (13 * 13 * MAX_COUT) /* the largest: 12 x 13 pixels at stride 1 */
#define MAX_SCR  1024
static float cv_in[MAX_CIN], cv_w[MAX_COUT * MAX_K], cv_blocks[((MAX_COUT + BLOCK - 1) / BLOCK) * BLOCK * MAX_K],
    cv_out[MAX_OUT + 16], cv_want[MAX_OUT], cv_scratch[MAX_SCR];
static uint32_t seed = 2828u;
static int failures, checks;
static long dw_bias_first; /* depthwise outputs that match the bias-first order only (the column slides') */

static float next(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (float)((int32_t)(seed >> 8) - (1 << 23)) / (float)(1 << 23);
}

static float clamp(float v, float lo, float hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

static const float ranges[4][2] = {{-FLT_MAX, FLT_MAX}, {0.0f, FLT_MAX}, {0.0f, 6.0f}, {-2.5f, 2.5f}};

/* SAME (TFLite's: the outputs ceil(size / stride), the padding's smaller half before) or VALID along one axis. */
static void axis(int32_t size, int32_t stride, int32_t same, int32_t* out_size, int32_t* pad)
{
    const int32_t o = same ? (size + stride - 1) / stride : (size - 3) / stride + 1;
    const int32_t total = (o - 1) * stride + 3 - size;
    *out_size = size >= 3 || same ? o : 0;
    *pad = same && total > 0 ? total / 2 : 0;
}

static void depthwise_s(int32_t h, int32_t w, int32_t c, int32_t same, int32_t r, int32_t with_bias, int32_t stride)
{
    const float lo = ranges[r][0], hi = ranges[r][1];
    int32_t i, oy, ox, ch, fy, fx, oh, ow, pad, pad_left;
    axis(h, stride, same, &oh, &pad);
    axis(w, stride, same, &ow, &pad_left);
    if (oh < 1 || ow < 1) {
        return;
    }
    for (i = 0; i < h * w * c; i++) {
        in[i] = 4.0f * next();
    }
    for (i = 0; i < 9 * c; i++) {
        wt[i] = next();
    }
    for (i = 0; i < c; i++) {
        bias[i] = next();
    }
    for (i = 0; i < oh * ow * c + 16; i++) {
        out[i] = 12345.0f;
    }
    for (oy = 0; oy < oh; oy++) {
        for (ox = 0; ox < ow; ox++) {
            for (ch = 0; ch < c; ch++) {
                float acc = 0.0f, acc_b = with_bias ? bias[ch] : 0.0f;
                for (fy = 0; fy < 3; fy++) {
                    for (fx = 0; fx < 3; fx++) {
                        const int32_t iy = oy * stride - pad + fy, ix = ox * stride - pad_left + fx;
                        if (iy >= 0 && iy < h && ix >= 0 && ix < w) {
                            acc = fmaf(in[(iy * w + ix) * c + ch], wt[(fy * 3 + fx) * c + ch], acc);
                            acc_b = fmaf(in[(iy * w + ix) * c + ch], wt[(fy * 3 + fx) * c + ch], acc_b);
                        }
                    }
                }
                if (with_bias) {
                    acc += bias[ch];
                }
                want[(oy * ow + ox) * c + ch] = clamp(acc, lo, hi);
                /* The column slides' order: the same taps' fused multiply-adds from the bias. */
                want_b[(oy * ow + ox) * c + ch] = clamp(acc_b, lo, hi);
            }
        }
    }
    if (stride == 1 && pad == 1 && pad_left == 1 && oh == h && ow == w && h >= 2 && w >= 5) {
        /* The compiler's entry point for a layer Helium's lanes take (linking them; elsewhere the kernel). */
        aot_depthwise_conv2d_f32_vec_lanes(in, 1, h, w, c, wt, 3, 3, with_bias ? bias : NULL, out, oh, ow, stride,
                                           stride, 1, 1, pad, pad_left, lo, hi);
    } else {
        AOT_F32_TEST_DW(in, 1, h, w, c, wt, 3, 3, with_bias ? bias : NULL, out, oh, ow, stride, stride, 1, 1, pad,
                        pad_left, lo, hi);
    }
    for (i = 0; i < oh * ow * c + 16; i++) {
        const float expect = i < oh * ow * c ? want[i] : 12345.0f;
        if (i < oh * ow * c && !(out[i] == expect) && out[i] == want_b[i]) {
            dw_bias_first++;
            continue;
        }
        if (!(out[i] == expect) && failures++ < 10) {
            printf("depthwise %ldx%ldx%ld %s stride %ld range %ld bias %ld at %ld: %g, want %g\n", (long)h, (long)w,
                   (long)c, same ? "SAME" : "VALID", (long)stride, (long)r, (long)with_bias, (long)i, (double)out[i],
                   (double)expect);
        }
    }
    checks++;
}

static void depthwise(int32_t h, int32_t w, int32_t c, int32_t same, int32_t r, int32_t with_bias)
{
    depthwise_s(h, w, c, same, r, with_bias, 1);
}

/* block: the FPU's or Helium's pair-tile block (blocks of `block` units, each [depth][block], the last zero-padded)
 * or FC_WIDE, Helium's layout (blocks of 16 units, the last of the remaining units rounded up to 4, each
 * [depth][width]). */
static void fully_connected(int32_t depth, int32_t units, int32_t batches, int32_t r, int32_t with_bias, int32_t block)
{
    const float lo = ranges[r][0], hi = ranges[r][1];
    int32_t i, b, u, k, row;
    for (i = 0; i < depth * batches; i++) {
        fc_in[i] = next();
    }
    for (i = 0; i < depth * units; i++) {
        fc_w[i] = next();
    }
    for (i = 0; i < units; i++) {
        bias[i] = next();
    }
    /* The compiler's layout. */
    memset(fc_blocks, 0, sizeof(fc_blocks));
    for (u = 0; u < units; u++) {
        const int32_t o = u - u % block, rest = units - o;
        const int32_t width = block != FC_WIDE ? block : (rest < FC_WIDE ? (rest + 3) & ~3 : FC_WIDE);
        for (k = 0; k < depth; k++) {
            fc_blocks[o * depth + k * width + u % block] = fc_w[u * depth + k];
        }
    }
    for (i = 0; i < batches * units + 16; i++) {
        fc_out[i] = 12345.0f;
    }
    for (b = 0; b < batches; b++) {
        for (u = 0; u < units; u++) {
            float acc = 0.0f;
            for (k = 0; k < depth; k++) {
                acc = fmaf(fc_in[b * depth + k], fc_w[u * depth + k], acc);
            }
            if (with_bias) {
                acc += bias[u];
            }
            fc_want[b * units + u] = clamp(acc, lo, hi);
        }
    }
    for (row = 0; row < 2; row++) {
        for (i = 0; i < batches * units + 16; i++) {
            fc_out[i] = 12345.0f;
        }
        /* Both units: every batch (pairs of rows), and one row at a time (the batch of one's own unit). */
        (row ? aot_fully_connected_f32_gemm_row : aot_fully_connected_f32_gemm)(
            fc_in, batches, depth, fc_blocks, block, with_bias ? bias : NULL, fc_out, units, lo, hi);
        for (i = 0; i < batches * units + 16; i++) {
            const float expect = i < batches * units ? fc_want[i] : 12345.0f;
            if (!(fc_out[i] == expect) && failures++ < 10) {
                printf("fully connected%s %ld x %ld block %ld batch %ld range %ld bias %ld at %ld: %g, want %g\n",
                       row ? " (row)" : "", (long)depth, (long)units, (long)block, (long)batches, (long)r,
                       (long)with_bias, (long)i, (double)fc_out[i], (double)expect);
            }
        }
        checks++;
    }
}

/* A convolution (groups of one) at stride 2, SAME (pad_top / pad_left as TFLite: the larger half at the bottom and
 * right), its windows gathered (filter rows of fewer than 16 taps, scratch) or read in place (scratch NULL: only
 * the 1x1 filters here, whose windows are always inside the image). */
static void conv(int32_t h, int32_t w, int32_t ic, int32_t kh, int32_t kw, int32_t oc, int32_t stride, int32_t dil,
                 int32_t r, int32_t with_bias)
{
    const int32_t oh = (h + stride - 1) / stride, ow = (w + stride - 1) / stride, k = kh * kw * ic;
    const int32_t ekh = (kh - 1) * dil + 1; /* the rows a window spans (dilation dil along y) */
    const int32_t pt = ((oh - 1) * stride + ekh - h) / 2 > 0 ? ((oh - 1) * stride + ekh - h) / 2 : 0;
    const int32_t pl = ((ow - 1) * stride + kw - w) / 2 > 0 ? ((ow - 1) * stride + kw - w) / 2 : 0;
    const float lo = ranges[r][0], hi = ranges[r][1];
    const int32_t gathers = kw * ic < 16 && kh * kw > 1;
    /* The compiler's scratch (compiler/ops/kernels/float_gemm.py): 3 K floats (Helium's three windows; 2 K
     * elsewhere), or Helium's padded image when the filter rows are 4 floats stepping 2 along x: its rows (the
     * windows' extent) of ((ow - 1) * stride + kw) * ic floats, and 2 more.  Nothing beyond it may change. */
    const int32_t rows4 = kw * ic == 4 && stride * ic == 2;
    const int32_t padded = ((oh - 1) * stride + ekh) * ((ow - 1) * stride + kw) * ic + 2;
    const int32_t scratch = rows4 && padded > 3 * k ? padded : 3 * k;
    int32_t i, oy, ox, c, fy, fx, j;
    for (i = 0; i < h * w * ic; i++) {
        cv_in[i] = 2.0f * next();
    }
    for (i = 0; i < oc * k; i++) {
        cv_w[i] = next();
    }
    for (i = 0; i < oc; i++) {
        bias[i] = next();
    }
    memset(cv_blocks, 0, sizeof(cv_blocks));
    for (c = 0; c < oc; c++) {
        for (i = 0; i < k; i++) {
            cv_blocks[(c / BLOCK) * k * BLOCK + i * BLOCK + c % BLOCK] = cv_w[c * k + i];
        }
    }
    for (i = 0; i < oh * ow * oc + 16; i++) {
        cv_out[i] = 12345.0f;
    }
    for (i = 0; i < MAX_SCR; i++) {
        cv_scratch[i] = 23456.0f;
    }
    for (oy = 0; oy < oh; oy++) {
        for (ox = 0; ox < ow; ox++) {
            for (c = 0; c < oc; c++) {
                float acc = 0.0f;
                for (fy = 0; fy < kh; fy++) {
                    for (fx = 0; fx < kw; fx++) {
                        const int32_t iy = oy * stride - pt + fy * dil, ix = ox * stride - pl + fx;
                        if (iy < 0 || iy >= h || ix < 0 || ix >= w) {
                            continue;
                        }
                        for (j = 0; j < ic; j++) {
                            acc = fmaf(cv_in[(iy * w + ix) * ic + j], cv_w[c * k + (fy * kw + fx) * ic + j], acc);
                        }
                    }
                }
                if (with_bias) {
                    acc += bias[c];
                }
                cv_want[(oy * ow + ox) * oc + c] = clamp(acc, lo, hi);
            }
        }
    }
    aot_conv2d_f32_gemm(cv_in, 1, h, w, ic, cv_blocks, kh, kw, BLOCK, with_bias ? bias : NULL, cv_out, oh, ow, oc,
                        stride, stride, dil, 1, pt, pl, lo, hi, gathers ? cv_scratch : NULL);
    for (i = 0; i < oh * ow * oc + 16; i++) {
        const float expect = i < oh * ow * oc ? cv_want[i] : 12345.0f;
        if (!(cv_out[i] == expect) && failures++ < 10) {
            printf("conv %ldx%ldx%ld filter %ldx%ld dilation %ld to %ld range %ld bias %ld at %ld: %g, want %g\n",
                   (long)h, (long)w, (long)ic, (long)kh, (long)kw, (long)dil, (long)oc, (long)r, (long)with_bias,
                   (long)i, (double)cv_out[i], (double)expect);
        }
    }
    for (i = scratch; i < MAX_SCR; i++) {
        if (cv_scratch[i] != 23456.0f && failures++ < 10) {
            printf("conv %ldx%ldx%ld filter %ldx%ld: scratch written at %ld of %ld\n", (long)h, (long)w, (long)ic,
                   (long)kh, (long)kw, (long)i, (long)scratch);
        }
    }
    checks++;
}

int main(void)
{
    static const int32_t channels[] = {1, 3, 4, 7, 8, 12, 13};
    static const int32_t depths[] = {1, 3, 7, 8, 9, 15, 16, 17, 27, 64, 70};
    int32_t h, w, c, r, d, u, b, l;
    for (h = 1; h <= 9; h++) {
        for (w = 1; w <= 17; w++) {
            for (c = 0; c < (int32_t)(sizeof(channels) / sizeof(channels[0])); c++) {
                for (r = 0; r < 4; r++) {
                    depthwise(h, w, channels[c], 1, r, (h + w + r) & 1);
                    depthwise(h, w, channels[c], 0, r, 1);
                    /* Stride 2 (the rows of pixel pairs): fewer channel counts. */
                    if ((c & 1) == 0) {
                        depthwise_s(h, w, channels[c], 1, r, (h + r) & 1, 2);
                        depthwise_s(h, w, channels[c], 0, r, (w + r) & 1, 2);
                    }
                }
            }
        }
    }
    /* Helium's lanes of one channel (SAME, every range) on wider and taller layers: KWS's 25x5
     * (a left strip and the odd last column's 4 segments of 7 rows), 12 and 13 columns (an interior strip; a right
     * strip over its neighbour), 17 (5 jobs: two calls of the asm). */
    for (r = 0; r < 4; r++) {
        depthwise(25, 5, 13, 1, r, r != 1);
        depthwise(6, 12, 2, 1, r, 1);
        depthwise(7, 13, 5, 1, r, r != 2);
        depthwise(9, 17, 3, 1, r, 1);
        depthwise(11, 10, 1, 1, r, 0);
    }
    for (d = 0; d < (int32_t)(sizeof(depths) / sizeof(depths[0])); d++) {
        for (u = 1; u <= 17; u++) {
            for (b = 1; b <= 3; b++) {
                for (l = 0; l < (int32_t)(sizeof(fc_layouts) / sizeof(fc_layouts[0])); l++) {
                    for (r = 0; r < 3; r++) {
                        fully_connected(depths[d], u, b, r, 1, fc_layouts[l]);
                    }
                    fully_connected(depths[d], u, b, b - 1, 0, fc_layouts[l]);
                }
            }
        }
    }
    /* A first layer's form (10x4 filters on one channel, stride 2: gathered windows, rows and columns outside the
     * image at every edge; on Helium with whole blocks of 8 channels the padded image, output rows of 1 to 7 pixels:
     * triples, a last pair or single pixel), a 4x4 filter dilated 2 along y (the padded image's row step), 3x2 on 2
     * channels at stride 1 (the padded image's other form), 3x3 on 2 channels (gathered), 1x1 (in place); whole and
     * part blocks, odd pixel counts; KWS's first layer itself. */
    for (h = 3; h <= 13; h += 3) {
        for (w = 1; w <= 13; w += 2) {
            for (r = 0; r < 3; r++) {
                conv(h, w, 1, 10, 4, 8, 2, 1, r, r != 1);
                conv(h, w, 1, 10, 4, 16, 2, 1, r, r != 0);
                conv(h, w, 1, 10, 4, 13, 2, 1, r, 1);
                conv(h, w, 1, 4, 4, 8, 2, 2, r, r != 2);
                conv(h, w, 2, 3, 2, 16, 1, 1, r, r != 2);
                conv(h, w, 2, 3, 3, 8, 2, 1, r, r != 2);
                conv(h, w, 2, 1, 1, 12, 2, 1, r, 1);
            }
        }
    }
    conv(49, 10, 1, 10, 4, 16, 2, 1, 1, 1);
    /* The column slides start from the bias: their outputs must be there, not only the reference's order. */
    if (dw_bias_first == 0) {
        failures++;
    }
    printf("f32_kernels: %d checks, %d mismatches, %ld depthwise outputs in the bias-first order\n", checks, failures,
           dw_bias_first);
    return failures != 0;
}
