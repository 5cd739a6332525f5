/* Fast float32 2-D convolution (groups of one): pairs of output pixels times blocks of output channels through the
 * GEMM tile of gemm_f32_tile.h (Helium, the FPU's VFMA, or C), the windows read in place one filter row (or, at the
 * image's edges, one tap's channels) at a time; a layer whose filter rows are short (filter_w * in_c < 16 taps,
 * e.g. a first layer on 1 or 3 channels, where the loop's set-up would outweigh its taps) passes scratch of 2 * K
 * floats, into which both windows are gathered whole (3 * K on Helium, three windows; Helium's rows4 form, filter
 * rows of 4 floats stepping 2 along x, copies the input zero-padded into it instead: AOT_F32_ROWS4). */
#include "aot_sched.h"

#include <float.h>
#include <stddef.h>
#include <string.h>

#include "aot/kernels/conv2d.h"
#include "gemm_f32_tile.h"

/* One row alone (a tap only one pixel of a pair has): acc[j] += a[k] * w[k * block + j], one tap after the other. */
static void aot_f32_row_c(const float* a, const float* w, int32_t n, int32_t block, float* acc)
{
    int32_t k, j;
    for (k = 0; k < n; k++) {
        for (j = 0; j < block; j++) {
            acc[j] = fmaf(a[k], w[j], acc[j]);
        }
        w += block;
    }
}

/* Pixel px's window position: its top left tap's input row and column. */
static void aot_conv_f32_origin(int32_t px, int32_t out_w, int32_t stride_h, int32_t stride_w, int32_t pad_top,
                                int32_t pad_left, int32_t* y, int32_t* x)
{
    *y = (px / out_w) * stride_h - pad_top;
    *x = (px % out_w) * stride_w - pad_left;
}

/* The sums of two pixels (at rows y0, y1, columns x0, x1) over one block: every tap inside the image, in the
 * filter's (fy, fx, ic) order, as the reference kernel skips the others.  A filter row inside the image for both
 * pixels is one run of filter_w * in_c taps (dilation 1); otherwise runs of in_c taps, a tap only one of the pixels
 * has taken by that pixel alone. */
static void aot_conv_f32_pair(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* w,
                              int32_t filter_h, int32_t filter_w, int32_t block, int32_t dilation_h, int32_t dilation_w,
                              int32_t y0, int32_t x0, int32_t y1, int32_t x1, float* acc)
{
    const int32_t run = filter_w * in_c;
    const int32_t whole0 = dilation_w == 1 && x0 >= 0 && x0 + filter_w <= in_w;
    const int32_t whole1 = dilation_w == 1 && x1 >= 0 && x1 + filter_w <= in_w;
    const float* init = aot_f32_zeros; /* acc once a tap has been summed */
    int32_t fy, fx, j;
    for (fy = 0; fy < filter_h; fy++, w += run * block) {
        const int32_t iy0 = y0 + dilation_h * fy, iy1 = y1 + dilation_h * fy;
        const int32_t v0 = iy0 >= 0 && iy0 < in_h, v1 = iy1 >= 0 && iy1 < in_h;
        if (v0 && v1 && whole0 && whole1) {
            aot_f32_tile(in_b + (iy0 * in_w + x0) * in_c, in_b + (iy1 * in_w + x1) * in_c, w, run, block, init, acc);
            init = acc;
            continue;
        }
        for (fx = 0; fx < filter_w; fx++) {
            const int32_t ix0 = x0 + dilation_w * fx, ix1 = x1 + dilation_w * fx;
            const int32_t u0 = v0 && ix0 >= 0 && ix0 < in_w, u1 = v1 && ix1 >= 0 && ix1 < in_w;
            const float* a0 = in_b + (iy0 * in_w + ix0) * in_c;
            const float* a1 = in_b + (iy1 * in_w + ix1) * in_c;
            const float* wt = w + fx * in_c * block;
            if (init != acc && (u0 || u1)) {
                for (j = 0; j < 2 * block; j++) {
                    acc[j] = 0.0f;
                }
                init = acc;
            }
            if (u0 && u1) {
                aot_f32_tile(a0, a1, wt, in_c, block, acc, acc);
            } else if (u0) {
                aot_f32_row_c(a0, wt, in_c, block, acc);
            } else if (u1) {
                aot_f32_row_c(a1, wt, in_c, block, acc + block);
            }
        }
    }
    if (init != acc) { /* no tap inside the image */
        for (j = 0; j < 2 * block; j++) {
            acc[j] = 0.0f;
        }
    }
}

/* Whether a window at input row y, column x, of y_span rows and span columns, is inside the image. */
static int32_t aot_conv_f32_inside(int32_t y, int32_t x, int32_t in_h, int32_t in_w, int32_t span, int32_t y_span)
{
    return y >= 0 && y + y_span <= in_h && x >= 0 && x + span <= in_w;
}

/* Four floats: an aggregate of floats, so its copy may read and write float objects (LDM/STM on the Cortex-M). */
typedef struct {
    float v[4];
} aot_f32x4_t;

/* n floats from s to d (n < 16): 4, 2 and 1 at a time, inline; GCC makes a call of memcpy or memset of a plain
 * copy loop (see AOT_F32_NO_LIBCALL), which costs several times a filter row of a first layer. */
static inline __attribute__((always_inline)) void aot_f32_copy_short(float* d, const float* s, int32_t n)
{
    for (; n >= 4; n -= 4, d += 4, s += 4) {
        *(aot_f32x4_t*)d = *(const aot_f32x4_t*)s;
    }
    if (n & 2) {
        d[0] = s[0];
        d[1] = s[1];
        d += 2;
        s += 2;
    }
    if (n & 1) {
        *d = *s;
    }
}

/* n floats of zero at d, 4 at a time (STM of zeroed registers), inline. */
static inline __attribute__((always_inline)) void aot_f32_zero_short(float* d, int32_t n)
{
    const aot_f32x4_t z = {{0.0f, 0.0f, 0.0f, 0.0f}};
    for (; n >= 4; n -= 4, d += 4) {
        *(aot_f32x4_t*)d = z;
    }
    for (; n > 0; n--, d++) {
        *d = 0.0f;
    }
}

/* `count` rows of n floats (n < 16), from s (rows `step` floats apart) to d (rows `run` apart): the short runs of a
 * first layer (1 to 4 taps: a filter row on one channel) straight-line copies, others aot_f32_copy_short. */
static inline __attribute__((always_inline)) void aot_f32_copy_rows(float* d, int32_t run, const float* s, int32_t step,
                                                                    int32_t n, int32_t count)
{
    int32_t i;
    switch (n) {
    case 4:
        for (i = 0; i < count; i++, d += run, s += step) {
            *(aot_f32x4_t*)d = *(const aot_f32x4_t*)s;
        }
        break;
    case 3:
        for (i = 0; i < count; i++, d += run, s += step) {
            d[0] = s[0];
            d[1] = s[1];
            d[2] = s[2];
        }
        break;
    case 2:
        for (i = 0; i < count; i++, d += run, s += step) {
            d[0] = s[0];
            d[1] = s[1];
        }
        break;
    default:
        for (i = 0; i < count; i++, d += run, s += step) {
            aot_f32_copy_short(d, s, n);
        }
        break;
    }
}

#if defined(__GNUC__) && !defined(__clang__)
#define AOT_F32_NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define AOT_F32_NO_LIBCALL
#endif

/* Pixel (y, x)'s window as a row of K taps in (fy, fx, ic) order, zeros for the taps outside the image (each adds
 * a zero product: the sum the reference kernel gets by skipping them).  With dilation 1 along x the taps inside the
 * image are one run of each filter row ([lo, lo + n) of its filter_w * in_c), copied whole; rows above and below the
 * image and the taps beside the run come from the zeros (a gathered row is shorter than 16 taps): the rows inside
 * the image one loop, a window inside the image along x (most of a first layer's) without the zeros' copies. */
static AOT_F32_NO_LIBCALL void aot_conv_f32_gather(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c,
                                                   int32_t filter_h, int32_t filter_w, int32_t dilation_h,
                                                   int32_t dilation_w, int32_t y, int32_t x, float* row)
{
    const int32_t run = filter_w * in_c;
    const int32_t xl = x >= 0 ? 0 : (-x < filter_w ? -x : filter_w), xe = in_w - x < filter_w ? in_w - x : filter_w;
    const int32_t xh = xe > xl ? xe : xl;
    int32_t fy, fx, i;
    if (dilation_w == 1 && run <= 2 * AOT_F32_MAX_BLOCK) {
        const int32_t lo = xl * in_c, n = (xh - xl) * in_c;
        int32_t f0 = 0, f1 = filter_h; /* the filter rows inside the image */
        while (f0 < filter_h && y + dilation_h * f0 < 0) {
            f0++;
        }
        while (f1 > f0 && y + dilation_h * (f1 - 1) >= in_h) {
            f1--;
        }
        if (n == 0) {
            f1 = f0;
        }
        if (lo != 0 || n != run) {
            aot_f32_zero_short(row, filter_h * run); /* at the left or right edge: the taps beside the runs */
        } else {
            aot_f32_zero_short(row, f0 * run);
            aot_f32_zero_short(row + f1 * run, (filter_h - f1) * run);
        }
        if (f1 > f0) {
            aot_f32_copy_rows(row + f0 * run + lo, run, in_b + ((y + dilation_h * f0) * in_w + x + xl) * in_c,
                              dilation_h * in_w * in_c, n, f1 - f0);
        }
        return;
    }
    for (fy = 0; fy < filter_h; fy++, row += run) {
        const int32_t iy = y + dilation_h * fy;
        if (iy < 0 || iy >= in_h) {
            for (i = 0; i < run; i++) {
                row[i] = 0.0f;
            }
        } else if (dilation_w == 1) {
            const int32_t lo = xl * in_c, hi = xh * in_c;
            for (i = 0; i < lo; i++) {
                row[i] = 0.0f;
            }
            if (hi > lo) {
                const float* a = in_b + (iy * in_w + x + xl) * in_c; /* tap lo */
                for (; i < hi; i++) {
                    row[i] = a[i - lo];
                }
            }
            for (; i < run; i++) {
                row[i] = 0.0f;
            }
        } else {
            for (fx = 0; fx < filter_w; fx++) {
                const int32_t ix = x + dilation_w * fx;
                const int32_t inside = ix >= 0 && ix < in_w;
                for (i = 0; i < in_c; i++) {
                    row[fx * in_c + i] = inside ? in_b[(iy * in_w + ix) * in_c + i] : 0.0f;
                }
            }
        }
    }
}

#if defined(AOT_F32_MVE)
/* What aot_f32_tile2 and aot_f32_tile3 need after their loops, in memory (every core register is taken in the loop):
 * the block's bias (NULL: none), the range as 4 x lo then 4 x hi, the first pixel's 8 outputs and the bytes between two
 * pixels'. */
typedef struct {
    const float* bias;
    const float* range;
    float* out;
    int32_t stride;
} aot_f32_tile_dst;

/* Two rows of n taps from zero times one block of 8 channels (Helium only), their outputs stored as aot_f32_tile3
 * stores them (rows 0 and 1 to d->out and d->out + d->stride bytes; a stride of 0 for one row): aot_f32_tile's loop
 * (15 instructions per 32 multiply-adds) with the bias and the clamp in the same pass. */
static void aot_f32_tile2(const float* a0, const float* a1, const float* w, int32_t n, const aot_f32_tile_dst* d)
{
    uint32_t x0, x1, y0, y1;
    __asm__ volatile(
        "asrs %[x0], %[n], #1\n\t"
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "vmov.i32 q2, #0\n\t"
        "vmov.i32 q3, #0\n\t"
        "wls lr, %[x0], 2f\n" AOT_F32_MVE_PAIR_LOOP_ASM "lsls %[x0], %[n], #31\n\t" /* an odd last tap */
        AOT_F32_MVE_ODD_TAP_ASM "ldrd %[x0], %[x1], [%[d]]\n\t"                     /* bias, range */
        "ldrd %[y0], %[y1], [%[d], #8]\n\t"                                         /* out, stride */
        "cmp %[x0], #0\n\t"
        "beq 4f\n\t"
        "vldrw.32 q6, [%[x0]]\n\t"
        "vldrw.32 q7, [%[x0], #16]\n\t"
        "vadd.f32 q0, q0, q6\n\t"
        "vadd.f32 q1, q1, q7\n\t"
        "vadd.f32 q2, q2, q6\n\t"
        "vadd.f32 q3, q3, q7\n"
        "4:\n\t"
        "vldrw.32 q6, [%[x1]]\n\t"
        "vldrw.32 q7, [%[x1], #16]\n\t"
        "vmaxnm.f32 q0, q0, q6\n\t"
        "vmaxnm.f32 q1, q1, q6\n\t"
        "vmaxnm.f32 q2, q2, q6\n\t"
        "vmaxnm.f32 q3, q3, q6\n\t"
        "vminnm.f32 q0, q0, q7\n\t"
        "vminnm.f32 q1, q1, q7\n\t"
        "vminnm.f32 q2, q2, q7\n\t"
        "vminnm.f32 q3, q3, q7\n\t"
        "vstrw.32 q0, [%[y0]]\n\t"
        "vstrw.32 q1, [%[y0], #16]\n\t"
        "add %[y0], %[y0], %[y1]\n\t"
        "vstrw.32 q2, [%[y0]]\n\t"
        "vstrw.32 q3, [%[y0], #16]"
        : [a0] "+r"(a0), [a1] "+r"(a1), [w] "+r"(w), [x0] "=&r"(x0), [x1] "=&r"(x1), [y0] "=&r"(y0), [y1] "=&r"(y1)
        : [d] "r"(d), [n] "r"(n)
        : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
}

/* range[0..3] = lo, range[4..7] = hi: the clamp's bounds as two vectors for the tiles' VMAXNM/VMINNM. */
static void aot_f32_range(float* range, float lo, float hi)
{
    int32_t i;
    for (i = 0; i < 4; i++) {
        range[i] = lo;
        range[4 + i] = hi;
    }
}
#endif

#if defined(AOT_F32_MVE) && defined(__OPTIMIZE__)
/* Helium's form of a first layer whose filter rows are 4 floats (filter_w * in_c) and whose windows step 2 floats
 * along x (stride_w * in_c; KWS's 10x4 filter on one channel at stride 2): the input is copied once, zero-padded, into
 * the scratch (the padded image: every window inside it), and the output pixels of a row go three (or two) at a time
 * through a tile that reads each filter row of the three windows in place with one LDM of 8 floats (the windows
 * overlap: pixel p's taps are floats 2p to 2p + 3).  Not at -O0 (the asm takes 12 core registers besides lr). */
#define AOT_F32_ROWS4 1

/* What the rows4 tiles read and keep beside their registers: the block's bias (NULL: none) and its first pixel's 8
 * outputs (both advanced by a block), the range as 4 x lo then 4 x hi, the bytes between two pixels' outputs (0: the
 * second pixel's outputs, stored first, are overwritten by the first's), the filter rows, the blocks (counted
 * down), the windows' first filter row.  Byte offsets as the asm reads them. */
typedef struct {
    const float* bias;  /* 0 */
    const float* range; /* 4 */
    float* out;         /* 8 */
    int32_t stride;     /* 12 */
    int32_t rows;       /* 16 */
    int32_t blocks;     /* 20 */
    const float* a;     /* 24 */
} aot_f32_rows4_dst;

/* One filter row of the three (two) pixels' taps in x0-x7 (x0-x5): 4 taps, each tap's 8 weights (q6, q7) loaded
 * between the multiply-adds of the tap before. */
#define AOT_F32_ROWS4_X3_ROW                                                                                           \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q4, q6, %[x4]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x0]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x2]\n\t"                                                                                       \
    "vfma.f32 q5, q7, %[x4]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x1]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q4, q6, %[x5]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x1]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x3]\n\t"                                                                                       \
    "vfma.f32 q5, q7, %[x5]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x4]\n\t"                                                                                       \
    "vfma.f32 q4, q6, %[x6]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x2]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x4]\n\t"                                                                                       \
    "vfma.f32 q5, q7, %[x6]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x5]\n\t"                                                                                       \
    "vfma.f32 q4, q6, %[x7]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x3]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x5]\n\t"                                                                                       \
    "vfma.f32 q5, q7, %[x7]\n\t"

#define AOT_F32_ROWS4_X2_ROW                                                                                           \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x0]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x2]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x0]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x2]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x1]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x3]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x1]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x3]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x2]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x4]\n\t"                                                                                       \
    "vldrw.32 q6, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q1, q7, %[x2]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x4]\n\t"                                                                                       \
    "vldrw.32 q7, [%[w]], #16\n\t"                                                                                     \
    "vfma.f32 q0, q6, %[x3]\n\t"                                                                                       \
    "vfma.f32 q2, q6, %[x5]\n\t"                                                                                       \
    "vfma.f32 q1, q7, %[x3]\n\t"                                                                                       \
    "vfma.f32 q3, q7, %[x5]\n\t"

/* The outputs' head (the sums in q0-q5, or q0-q3 for two pixels): x0 the bias, x1 the range, x2 the outputs, x3 the
 * stride; the bias added (after the sums, as the reference); q7 the lower bound, q6 the upper. */
#define AOT_F32_ROWS4_HEAD_ASM                                                                                         \
    "ldrd %[x0], %[x1], [%[d]]\n\t"                                                                                    \
    "ldrd %[x2], %[x3], [%[d], #8]\n\t"                                                                                \
    "vldrw.32 q7, [%[x1]]\n\t"                                                                                         \
    "cbz %[x0], 4f\n\t"                                                                                                \
    "vldrw.32 q6, [%[x0]], #32\n\t"                                                                                    \
    "str %[x0], [%[d]]\n\t"
#define AOT_F32_ROWS4_BIAS3_ASM                                                                                        \
    AOT_F32_ROWS4_HEAD_ASM "vadd.f32 q0, q0, q6\n\t"                                                                   \
                           "vadd.f32 q2, q2, q6\n\t"                                                                   \
                           "vadd.f32 q4, q4, q6\n\t"                                                                   \
                           "vldrw.32 q6, [%[x0], #-16]\n\t"                                                            \
                           "vadd.f32 q1, q1, q6\n\t"                                                                   \
                           "vadd.f32 q3, q3, q6\n\t"                                                                   \
                           "vadd.f32 q5, q5, q6\n"                                                                     \
                           "4:\n\t"                                                                                    \
                           "vldrw.32 q6, [%[x1], #16]\n\t"
#define AOT_F32_ROWS4_BIAS2_ASM                                                                                        \
    AOT_F32_ROWS4_HEAD_ASM "vadd.f32 q0, q0, q6\n\t"                                                                   \
                           "vadd.f32 q2, q2, q6\n\t"                                                                   \
                           "vldrw.32 q6, [%[x0], #-16]\n\t"                                                            \
                           "vadd.f32 q1, q1, q6\n\t"                                                                   \
                           "vadd.f32 q3, q3, q6\n"                                                                     \
                           "4:\n\t"                                                                                    \
                           "vldrw.32 q6, [%[x1], #16]\n\t"

/* Three pixels (windows at a, a + 2, a + 4 floats; rows d->rows filter rows rs bytes apart) times one block of 8
 * channels from zero, their outputs stored: per filter row one LDM, one ADD, 8 VLDRW and 24 VFMA (35 instructions
 * per 96 MACs), each sum's taps in the filter's order; the weights' loads between the multiply-adds of the tap
 * before (the dual-beat overlap). */
static __attribute__((noinline)) void aot_f32_rows4_x3(const float* w, int32_t rs, aot_f32_rows4_dst* d)
{
    /* LDM fills its registers in ascending order: the eight taps' registers are named. */
    const float* a;
    register uint32_t x0 __asm__("r0");
    register uint32_t x1 __asm__("r1");
    register uint32_t x2 __asm__("r2");
    register uint32_t x3 __asm__("r3");
    register uint32_t x4 __asm__("r4");
    register uint32_t x5 __asm__("r5");
    register uint32_t x6 __asm__("r6");
    register uint32_t x7 __asm__("r8");
    __asm__ volatile("8:\n\t"
                     "vmov.i32 q0, #0\n\t"
                     "vmov.i32 q1, #0\n\t"
                     "vmov.i32 q2, #0\n\t"
                     "vmov.i32 q3, #0\n\t"
                     "vmov.i32 q4, #0\n\t"
                     "vmov.i32 q5, #0\n\t"
                     "ldr %[x0], [%[d], #16]\n\t"
                     "ldr %[a], [%[d], #24]\n\t"
                     "wls lr, %[x0], 2f\n"
                     "1:\n\t"
                     "ldm %[a], {%[x0], %[x1], %[x2], %[x3], %[x4], %[x5], %[x6], %[x7]}\n\t"
                     "add %[a], %[a], %[rs]\n\t" AOT_F32_ROWS4_X3_ROW "le lr, 1b\n"
                     "2:\n\t" AOT_F32_ROWS4_BIAS3_ASM "vmaxnm.f32 q0, q0, q7\n\t"
                     "vmaxnm.f32 q1, q1, q7\n\t"
                     "vmaxnm.f32 q2, q2, q7\n\t"
                     "vmaxnm.f32 q3, q3, q7\n\t"
                     "vmaxnm.f32 q4, q4, q7\n\t"
                     "vmaxnm.f32 q5, q5, q7\n\t"
                     "vminnm.f32 q0, q0, q6\n\t"
                     "vminnm.f32 q1, q1, q6\n\t"
                     "vminnm.f32 q2, q2, q6\n\t"
                     "vminnm.f32 q3, q3, q6\n\t"
                     "vminnm.f32 q4, q4, q6\n\t"
                     "vminnm.f32 q5, q5, q6\n\t"
                     "add %[x1], %[x2], #32\n\t"
                     "str %[x1], [%[d], #8]\n\t"
                     "vstrw.32 q0, [%[x2]]\n\t"
                     "vstrw.32 q1, [%[x2], #16]\n\t"
                     "add %[x2], %[x2], %[x3]\n\t"
                     "vstrw.32 q2, [%[x2]]\n\t"
                     "vstrw.32 q3, [%[x2], #16]\n\t"
                     "add %[x2], %[x2], %[x3]\n\t"
                     "vstrw.32 q4, [%[x2]]\n\t"
                     "vstrw.32 q5, [%[x2], #16]\n\t"
                     "ldr %[x0], [%[d], #20]\n\t"
                     "subs %[x0], %[x0], #1\n\t"
                     "str %[x0], [%[d], #20]\n\t"
                     "bne 8b"
                     : [a] "=&r"(a), [w] "+r"(w), [x0] "=&l"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
                       [x4] "=&r"(x4), [x5] "=&r"(x5), [x6] "=&r"(x6), [x7] "=&r"(x7)
                     : [d] "r"(d), [rs] "r"(rs)
                     : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
}

/* Two pixels (windows at a and a + 2 floats), as aot_f32_rows4_x3 (27 instructions per 64 MACs a filter row); the
 * second pixel's outputs are stored first, so that a stride of 0 leaves the first's (a last single pixel, whose
 * partner reads the padded image's slack). */
static __attribute__((noinline)) void aot_f32_rows4_x2(const float* w, int32_t rs, aot_f32_rows4_dst* d)
{
    const float* a;
    register uint32_t x0 __asm__("r0");
    register uint32_t x1 __asm__("r1");
    register uint32_t x2 __asm__("r2");
    register uint32_t x3 __asm__("r3");
    register uint32_t x4 __asm__("r4");
    register uint32_t x5 __asm__("r5");
    __asm__ volatile("8:\n\t"
                     "vmov.i32 q0, #0\n\t"
                     "vmov.i32 q1, #0\n\t"
                     "vmov.i32 q2, #0\n\t"
                     "vmov.i32 q3, #0\n\t"
                     "ldr %[x0], [%[d], #16]\n\t"
                     "ldr %[a], [%[d], #24]\n\t"
                     "wls lr, %[x0], 2f\n"
                     "1:\n\t"
                     "ldm %[a], {%[x0], %[x1], %[x2], %[x3], %[x4], %[x5]}\n\t"
                     "add %[a], %[a], %[rs]\n\t" AOT_F32_ROWS4_X2_ROW "le lr, 1b\n"
                     "2:\n\t" AOT_F32_ROWS4_BIAS2_ASM "vmaxnm.f32 q0, q0, q7\n\t"
                     "vmaxnm.f32 q1, q1, q7\n\t"
                     "vmaxnm.f32 q2, q2, q7\n\t"
                     "vmaxnm.f32 q3, q3, q7\n\t"
                     "vminnm.f32 q0, q0, q6\n\t"
                     "vminnm.f32 q1, q1, q6\n\t"
                     "vminnm.f32 q2, q2, q6\n\t"
                     "vminnm.f32 q3, q3, q6\n\t"
                     "add %[x1], %[x2], #32\n\t"
                     "str %[x1], [%[d], #8]\n\t"
                     "add %[x1], %[x2], %[x3]\n\t"
                     "vstrw.32 q2, [%[x1]]\n\t"
                     "vstrw.32 q3, [%[x1], #16]\n\t"
                     "vstrw.32 q0, [%[x2]]\n\t"
                     "vstrw.32 q1, [%[x2], #16]\n\t"
                     "ldr %[x0], [%[d], #20]\n\t"
                     "subs %[x0], %[x0], #1\n\t"
                     "str %[x0], [%[d], #20]\n\t"
                     "bne 8b"
                     : [a] "=&r"(a), [w] "+r"(w), [x0] "=&l"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
                       [x4] "=&r"(x4), [x5] "=&r"(x5)
                     : [d] "r"(d), [rs] "r"(rs)
                     : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
}

/* n floats of zero at d, then `rows` runs of n floats from s (rows s_step floats apart) to d + at (d_step apart):
 * vectors, the last of each run predicated (the padded image: about 1,200 instructions for KWS's, where copies of a
 * float or four at a time took 6,000). */
static void aot_f32_pad_rows(float* d, int32_t total, int32_t at, int32_t d_step, const float* s, int32_t s_step,
                             int32_t n, int32_t rows)
{
    const float32x4_t z = vdupq_n_f32(0.0f);
    int32_t i, r;
    for (i = 0; i < total; i += 4) {
        vstrwq_p_f32(d + i, z, vctp32q((uint32_t)(total - i)));
    }
    for (r = 0; r < rows; r++, s += s_step) {
        float* o = d + at + r * d_step;
        for (i = 0; i < n; i += 4) {
            const mve_pred16_t q = vctp32q((uint32_t)(n - i));
            vstrwq_p_f32(o + i, vldrwq_z_f32(s + i, q), q);
        }
    }
}

/* The rows4 form of one image (see AOT_F32_ROWS4): the padded image (hp rows of wp * in_c floats: the windows' extent,
 * the compiler's scratch holds it and 2 floats more) into pad, then every output row's pixels three at a time, a
 * last pair or single pixel two at a time, each through the blocks of 8 channels. */
static void aot_conv_f32_rows4(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                               int32_t filter_h, const float* bias, float* out_b, int32_t out_h, int32_t out_w,
                               int32_t out_c, int32_t stride_h, int32_t dilation_h, int32_t pad_top, int32_t pad_left,
                               float act_min, float act_max, float* pad)
{
    const int32_t hp = (out_h - 1) * stride_h + (filter_h - 1) * dilation_h + 1;
    const int32_t row = ((out_w - 1) * 2 + 4); /* floats of a padded row */
    const int32_t left = pad_left * in_c, mid = in_w * in_c < row - left ? in_w * in_c : row - left;
    const int32_t rs = dilation_h * row * (int32_t)sizeof(float);
    /* The padded image's rows inside the image: y0 <= y < y1 (input rows y - pad_top), each one run of mid floats
     * from its input row's first column at float `left`; everything else zeros, and the 2 floats of slack a last
     * single pixel's partner reads. */
    const int32_t y0 = pad_top < hp ? pad_top : hp, y1 = pad_top + in_h < hp ? pad_top + in_h : hp;
    float range[8];
    aot_f32_rows4_dst d;
    int32_t y, x;
    aot_f32_pad_rows(pad, hp * row + 2, y0 * row + left, row, in_b, in_w * in_c, mid, mid > 0 ? y1 - y0 : 0);
    aot_f32_range(range, act_min, act_max);
    d.range = range;
    d.rows = filter_h;
    for (y = 0; y < out_h; y++) {
        const float* a = pad + y * stride_h * row;
        for (x = 0; x < out_w; x += 3) {
            const int32_t n = out_w - x < 3 ? out_w - x : 3;
            d.stride = n == 1 ? 0 : out_c * (int32_t)sizeof(float);
            d.bias = bias;
            d.out = out_b + (y * out_w + x) * out_c;
            d.blocks = out_c / 8;
            d.a = a + 2 * x;
            if (n == 3) {
                aot_f32_rows4_x3(filter, rs, &d);
            } else {
                aot_f32_rows4_x2(filter, rs, &d);
            }
        }
    }
}
#endif

#if defined(AOT_F32_VFP) && (defined(AOT_F32_OUT_FPV5) || defined(AOT_F32_OUT_FPV4))
#define AOT_F32_VFP_OUT 1
/* What aot_f32_tiles_vfp needs beside its loop (the core registers are all taken): the sums' start, the next
 * block's bias (NULL: none) and the two pixels' next 4 outputs (advanced by the asm), the range (FPv5), whether it
 * is ReLU (FPv4: 0, FLT_MAX; otherwise none, -FLT_MAX, FLT_MAX).  The asm reads it at these byte offsets. */
typedef struct {
    float zeros[8];    /* 0 */
    const float* bias; /* 32 */
    float* out0;       /* 36 */
    float* out1;       /* 40 */
    float lo;          /* 44 */
    float hi;          /* 48 */
    int32_t relu;      /* 52 */
} aot_f32_vfp_dst;

/* Whether aot_f32_tile_vfp clamps to [lo, hi] as aot_f32_out4x2 does (FPv4: ReLU and none only). */
static int32_t aot_f32_vfp_out_ok(float lo, float hi)
{
#if defined(AOT_F32_OUT_FPV4)
    return !((lo > 0.0f) || ((lo < 0.0f) && (lo != -FLT_MAX)) || (hi != FLT_MAX));
#else
    (void)lo;
    (void)hi;
    return 1;
#endif
}

/* nb blocks of 4 channels of a pair: aot_f32_tile from zero on the FPU (block 4) with aot_f32_out4x2's outputs in
 * the same asm pass (the same bits), the blocks one asm loop (a0 and a1 rewound, the weights running on, the bias
 * and outputs advanced in d): no store and reload of the 8 sums, no call or set-up in C per block (about 45
 * instructions a block beside the tile's loop, where a call per block took 66). */
static void aot_f32_tiles_vfp(const float* a0, const float* a1, const float* w, int32_t n, int32_t nb,
                              aot_f32_vfp_dst* d)
{
    int32_t quads, rest;
    uint32_t t0, t1;
    __asm__ volatile("8:\n\t"
                     "vldm %[d], {s0-s7}\n\t"
                     "asrs %[q], %[n], #2\n\t"
                     "and %[r], %[n], #3\n\t" AOT_F32_VFP_TILE_ASM "ldr %[t0], [%[d], #32]\n\t"
                     "cmp %[t0], #0\n\t"
                     "beq 5f\n\t"
                     "vldm %[t0]!, {s8-s11}\n\t"
                     "str %[t0], [%[d], #32]\n\t"
                     "vadd.f32 s0, s0, s8\n\t"
                     "vadd.f32 s1, s1, s9\n\t"
                     "vadd.f32 s2, s2, s10\n\t"
                     "vadd.f32 s3, s3, s11\n\t"
                     "vadd.f32 s4, s4, s8\n\t"
                     "vadd.f32 s5, s5, s9\n\t"
                     "vadd.f32 s6, s6, s10\n\t"
                     "vadd.f32 s7, s7, s11\n"
                     "5:\n\t"
                     "ldrd %[t0], %[t1], [%[d], #36]\n\t"
#if defined(AOT_F32_OUT_FPV5)
                     "vldr s12, [%[d], #44]\n\t"
                     "vldr s13, [%[d], #48]\n\t"
                     "vmaxnm.f32 s0, s0, s12\n\t"
                     "vmaxnm.f32 s1, s1, s12\n\t"
                     "vmaxnm.f32 s2, s2, s12\n\t"
                     "vmaxnm.f32 s3, s3, s12\n\t"
                     "vmaxnm.f32 s4, s4, s12\n\t"
                     "vmaxnm.f32 s5, s5, s12\n\t"
                     "vmaxnm.f32 s6, s6, s12\n\t"
                     "vmaxnm.f32 s7, s7, s12\n\t"
                     "vminnm.f32 s0, s0, s13\n\t"
                     "vminnm.f32 s1, s1, s13\n\t"
                     "vminnm.f32 s2, s2, s13\n\t"
                     "vminnm.f32 s3, s3, s13\n\t"
                     "vminnm.f32 s4, s4, s13\n\t"
                     "vminnm.f32 s5, s5, s13\n\t"
                     "vminnm.f32 s6, s6, s13\n\t"
                     "vminnm.f32 s7, s7, s13\n\t"
                     "vstm %[t0]!, {s0-s3}\n\t"
                     "vstm %[t1]!, {s4-s7}\n\t"
#else
                     "ldr %[q], [%[d], #52]\n\t"
                     "cmp %[q], #0\n\t"
                     "bne 6f\n\t"
                     "vstm %[t0]!, {s0-s3}\n\t"
                     "vstm %[t1]!, {s4-s7}\n\t"
                     "b 7f\n"
                     "6:\n\t"
                     "vmov %[q], %[r], s0, s1\n\t"
                     "bic %[q], %[q], %[q], asr #31\n\t"
                     "bic %[r], %[r], %[r], asr #31\n\t"
                     "strd %[q], %[r], [%[t0]], #8\n\t"
                     "vmov %[q], %[r], s2, s3\n\t"
                     "bic %[q], %[q], %[q], asr #31\n\t"
                     "bic %[r], %[r], %[r], asr #31\n\t"
                     "strd %[q], %[r], [%[t0]], #8\n\t"
                     "vmov %[q], %[r], s4, s5\n\t"
                     "bic %[q], %[q], %[q], asr #31\n\t"
                     "bic %[r], %[r], %[r], asr #31\n\t"
                     "strd %[q], %[r], [%[t1]], #8\n\t"
                     "vmov %[q], %[r], s6, s7\n\t"
                     "bic %[q], %[q], %[q], asr #31\n\t"
                     "bic %[r], %[r], %[r], asr #31\n\t"
                     "strd %[q], %[r], [%[t1]], #8\n"
                     "7:\n\t"
#endif
                     "strd %[t0], %[t1], [%[d], #36]\n\t"
                     "sub %[a0], %[a0], %[n], lsl #2\n\t"
                     "sub %[a1], %[a1], %[n], lsl #2\n\t"
                     "subs %[nb], %[nb], #1\n\t"
                     "bne 8b"
                     : [a0] "+r"(a0), [a1] "+r"(a1), [w] "+r"(w), [nb] "+r"(nb), [q] "=&r"(quads), [r] "=&r"(rest),
                       [t0] "=&r"(t0), [t1] "=&r"(t1)
                     : [d] "r"(d), [n] "r"(n)
                     : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                       "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28",
                       "s29", "s30", "s31", "memory", "cc");
}
#endif

/* The whole blocks of the core's width of a pair whose windows are inside the image (or gathered): `rows` filter
 * rows of `run` taps each, row r of pixel p at a_p + r * stride; tile and outputs one block after the other, in a
 * loop of its own (few live values: no spills between the blocks); returns the channels done. */
static int32_t aot_conv_f32_blocks(const float* a0, const float* a1, int32_t stride, int32_t rows, int32_t run,
                                   const float* w, int32_t block, int32_t out_c, const float* bias, float* out0,
                                   float* out1, float act_min, float act_max)
{
    int32_t c = 0;
#if AOT_F32_NATIVE_BLOCK > 0
    float acc[2 * AOT_F32_MAX_BLOCK];
    int32_t r;
#if defined(AOT_F32_MVE)
    if (block == AOT_F32_NATIVE_BLOCK && rows == 1) { /* the outputs in the tile's asm pass */
        aot_f32_tile_dst d;
        float range[8];
        aot_f32_range(range, act_min, act_max);
        d.range = range;
        d.stride = (int32_t)((out1 - out0) * (int32_t)sizeof(float));
        for (; c + block <= out_c; c += block, w += run * block) {
            d.bias = bias == NULL ? NULL : bias + c;
            d.out = out0 + c;
            aot_f32_tile2(a0, a1, w, run, &d);
        }
        return c;
    }
#endif
#if defined(AOT_F32_VFP_OUT)
    if (block == AOT_F32_NATIVE_BLOCK && rows == 1 && aot_f32_vfp_out_ok(act_min, act_max)) {
        aot_f32_vfp_dst d; /* the outputs in the tile's asm pass */
        const int32_t nb = out_c / block;
        if (nb == 0) {
            return 0;
        }
        const aot_f32x4_t z = {{0.0f, 0.0f, 0.0f, 0.0f}};
        /* Two stores of 4 (GCC makes a loop of 8 a call of memset). */
        *(aot_f32x4_t*)d.zeros = z;
        *(aot_f32x4_t*)(d.zeros + 4) = z;
        d.lo = act_min;
        d.hi = act_max;
        d.relu = act_min == 0.0f;
        d.bias = bias;
        d.out0 = out0;
        d.out1 = out1;
        aot_f32_tiles_vfp(a0, a1, w, run, nb, &d);
        return nb * block;
    }
#endif
    if (block == AOT_F32_NATIVE_BLOCK && rows == 1) { /* a 1x1 layer, a gathered window: the loop as short */
        for (; c + block <= out_c; c += block, w += run * block) {
            aot_f32_tile(a0, a1, w, run, block, aot_f32_zeros, acc);
            aot_f32_tile_store(acc, block, bias == NULL ? NULL : bias + c, block, 2, out0 + c, out1 + c, act_min,
                               act_max);
        }
    } else if (block == AOT_F32_NATIVE_BLOCK) {
        for (; c + block <= out_c; c += block) {
            const float* init = aot_f32_zeros;
            for (r = 0; r < rows; r++, w += run * block) {
                aot_f32_tile(a0 + r * stride, a1 + r * stride, w, run, block, init, acc);
                init = acc;
            }
            aot_f32_tile_store(acc, block, bias == NULL ? NULL : bias + c, block, 2, out0 + c, out1 + c, act_min,
                               act_max);
        }
    }
#else
    (void)a0;
    (void)a1;
    (void)stride;
    (void)rows;
    (void)run;
    (void)w;
    (void)block;
    (void)out_c;
    (void)bias;
    (void)out0;
    (void)out1;
    (void)act_min;
    (void)act_max;
#endif
    return c;
}

#if defined(AOT_F32_MVE)
/* Three rows of n taps from zero times one block of 8 channels (Helium only), their outputs stored: each sum plus
 * the bias, clamped by VMAXNM/VMINNM (aot_f32_out4x2's form: the same bits), to d->out + r * d->stride bytes.
 * q0-q5: the 24 sums; q6, q7: one tap's 8 weights, loaded again for the second tap of a pair; 20 instructions per
 * 48 multiply-adds (0.42 per MAC, the two-row tile's 0.47), the same sums in the same order as the other tiles; the
 * outputs in the same pass (33 instructions for 24, where a store of the sums and the C outputs took twice that). */
static void aot_f32_tile3(const float* a0, const float* a1, const float* a2, const float* w, int32_t n,
                          const aot_f32_tile_dst* d)
{
    uint32_t x0, x1, y0, y1, z0, z1;
    __asm__ volatile("asrs %[x0], %[n], #1\n\t"
                     "vmov.i32 q0, #0\n\t"
                     "vmov.i32 q1, #0\n\t"
                     "vmov.i32 q2, #0\n\t"
                     "vmov.i32 q3, #0\n\t"
                     "vmov.i32 q4, #0\n\t"
                     "vmov.i32 q5, #0\n\t"
                     "wls lr, %[x0], 2f\n"
                     "1:\n\t"
                     "ldrd %[x0], %[x1], [%[a0]], #8\n\t"
                     "ldrd %[y0], %[y1], [%[a1]], #8\n\t"
                     "ldrd %[z0], %[z1], [%[a2]], #8\n\t"
                     "vldrw.32 q6, [%[w]], #16\n\t"
                     "vldrw.32 q7, [%[w]], #16\n\t"
                     "vfma.f32 q0, q6, %[x0]\n\t"
                     "vfma.f32 q1, q7, %[x0]\n\t"
                     "vfma.f32 q2, q6, %[y0]\n\t"
                     "vfma.f32 q3, q7, %[y0]\n\t"
                     "vfma.f32 q4, q6, %[z0]\n\t"
                     "vfma.f32 q5, q7, %[z0]\n\t"
                     "vldrw.32 q6, [%[w]], #16\n\t"
                     "vldrw.32 q7, [%[w]], #16\n\t"
                     "vfma.f32 q0, q6, %[x1]\n\t"
                     "vfma.f32 q1, q7, %[x1]\n\t"
                     "vfma.f32 q2, q6, %[y1]\n\t"
                     "vfma.f32 q3, q7, %[y1]\n\t"
                     "vfma.f32 q4, q6, %[z1]\n\t"
                     "vfma.f32 q5, q7, %[z1]\n\t"
                     "le lr, 1b\n"
                     "2:\n\t"
                     "lsls %[x0], %[n], #31\n\t" /* an odd last tap */
                     "beq 3f\n\t"
                     "ldr %[x0], [%[a0]]\n\t"
                     "ldr %[y0], [%[a1]]\n\t"
                     "ldr %[z0], [%[a2]]\n\t"
                     "vldrw.32 q6, [%[w]]\n\t"
                     "vldrw.32 q7, [%[w], #16]\n\t"
                     "vfma.f32 q0, q6, %[x0]\n\t"
                     "vfma.f32 q1, q7, %[x0]\n\t"
                     "vfma.f32 q2, q6, %[y0]\n\t"
                     "vfma.f32 q3, q7, %[y0]\n\t"
                     "vfma.f32 q4, q6, %[z0]\n\t"
                     "vfma.f32 q5, q7, %[z0]\n"
                     "3:\n\t"
                     "ldrd %[x0], %[x1], [%[d]]\n\t"     /* bias, range */
                     "ldrd %[y0], %[y1], [%[d], #8]\n\t" /* out, stride */
                     "cmp %[x0], #0\n\t"
                     "beq 4f\n\t"
                     "vldrw.32 q6, [%[x0]]\n\t"
                     "vldrw.32 q7, [%[x0], #16]\n\t"
                     "vadd.f32 q0, q0, q6\n\t"
                     "vadd.f32 q1, q1, q7\n\t"
                     "vadd.f32 q2, q2, q6\n\t"
                     "vadd.f32 q3, q3, q7\n\t"
                     "vadd.f32 q4, q4, q6\n\t"
                     "vadd.f32 q5, q5, q7\n"
                     "4:\n\t"
                     "vldrw.32 q6, [%[x1]]\n\t"
                     "vldrw.32 q7, [%[x1], #16]\n\t"
                     "vmaxnm.f32 q0, q0, q6\n\t"
                     "vmaxnm.f32 q1, q1, q6\n\t"
                     "vmaxnm.f32 q2, q2, q6\n\t"
                     "vmaxnm.f32 q3, q3, q6\n\t"
                     "vmaxnm.f32 q4, q4, q6\n\t"
                     "vmaxnm.f32 q5, q5, q6\n\t"
                     "vminnm.f32 q0, q0, q7\n\t"
                     "vminnm.f32 q1, q1, q7\n\t"
                     "vminnm.f32 q2, q2, q7\n\t"
                     "vminnm.f32 q3, q3, q7\n\t"
                     "vminnm.f32 q4, q4, q7\n\t"
                     "vminnm.f32 q5, q5, q7\n\t"
                     "vstrw.32 q0, [%[y0]]\n\t"
                     "vstrw.32 q1, [%[y0], #16]\n\t"
                     "add %[y0], %[y0], %[y1]\n\t"
                     "vstrw.32 q2, [%[y0]]\n\t"
                     "vstrw.32 q3, [%[y0], #16]\n\t"
                     "add %[y0], %[y0], %[y1]\n\t"
                     "vstrw.32 q4, [%[y0]]\n\t"
                     "vstrw.32 q5, [%[y0], #16]"
                     : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [w] "+r"(w), [x0] "=&r"(x0), [x1] "=&r"(x1),
                       [y0] "=&r"(y0), [y1] "=&r"(y1), [z0] "=&r"(z0), [z1] "=&r"(z1)
                     : [d] "r"(d), [n] "r"(n)
                     : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");
}
#endif

#if defined(AOT_F32_MVE)
/* Helium: three pixels of a 1x1 layer (or of any layer whose filter is one row of K taps in place: filter_h == 1,
 * windows inside the image) at once when the output channels are whole blocks of 8: the three-row tile
 * loads each tap's weights once for three pixels.  Returns whether it took them. */
static int32_t aot_conv_f32_triple(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* w,
                                   int32_t k, int32_t filter_h, int32_t span, int32_t block, const float* bias,
                                   float* out_b, int32_t px, int32_t out_w, int32_t out_c, int32_t stride_h,
                                   int32_t stride_w, int32_t pad_top, int32_t pad_left, float act_min, float act_max)
{
    float range[8];
    aot_f32_tile_dst d;
    const float* a[3];
    int32_t i, c, y, x;
    if (filter_h != 1 || block != 8 || (out_c & 7) != 0) {
        return 0;
    }
    for (i = 0; i < 3; i++) {
        aot_conv_f32_origin(px + i, out_w, stride_h, stride_w, pad_top, pad_left, &y, &x);
        if (!aot_conv_f32_inside(y, x, in_h, in_w, span, 1)) {
            return 0;
        }
        a[i] = in_b + (y * in_w + x) * in_c;
    }
    aot_f32_range(range, act_min, act_max);
    d.range = range;
    d.stride = out_c * (int32_t)sizeof(float);
    for (c = 0; c < out_c; c += 8, w += k * 8) {
        d.bias = bias == NULL ? NULL : bias + c;
        d.out = out_b + px * out_c + c;
        aot_f32_tile3(a[0], a[1], a[2], w, k, &d);
    }
    return 1;
}
#endif

void aot_conv2d_f32_gemm(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                         const float* filter, int32_t filter_h, int32_t filter_w, int32_t block, const float* bias,
                         float* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h, int32_t stride_w,
                         int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left, float act_min,
                         float act_max, float* scratch)
{
    const int32_t k = filter_h * filter_w * in_c, pixels = out_h * out_w;
    const int32_t span = dilation_w * (filter_w - 1) + 1;   /* the input columns of a filter row */
    const int32_t y_span = dilation_h * (filter_h - 1) + 1; /* the input rows of a window */
    const float* a0;
    const float* a1;
    int32_t b, px, c, y0, x0, y1, x1, nrows = 1;
    for (b = 0; b < batches; b++) {
        const float* in_b = input + b * in_h * in_w * in_c;
        float* out_b = output + b * pixels * out_c;
#if defined(AOT_F32_ROWS4)
        if (scratch != NULL && filter_w * in_c == 4 && stride_w * in_c == 2 && dilation_w == 1 && block == 8 &&
            (out_c & 7) == 0) {
            aot_conv_f32_rows4(in_b, in_h, in_w, in_c, filter, filter_h, bias, out_b, out_h, out_w, out_c, stride_h,
                               dilation_h, pad_top, pad_left, act_min, act_max, scratch);
            continue;
        }
#endif
        for (px = 0; px < pixels; px += 2) {
            const int32_t rows = px + 1 < pixels ? 2 : 1;
            const float* w = filter;
#if defined(AOT_F32_MVE)
            if (scratch == NULL && px + 2 < pixels && (filter_w == 1 || dilation_w == 1) &&
                aot_conv_f32_triple(in_b, in_h, in_w, in_c, filter, k, filter_h, span, block, bias, out_b, px, out_w,
                                    out_c, stride_h, stride_w, pad_top, pad_left, act_min, act_max)) {
                px++; /* three pixels done */
                continue;
            }
            if (scratch != NULL && px + 2 < pixels && block == 8 && (out_c & 7) == 0) {
                /* Three gathered windows (Helium's scratch holds 3 K floats) through the three-pixel tile. */
                float range[8];
                aot_f32_tile_dst d;
                int32_t i;
                for (i = 0; i < 3; i++) {
                    aot_conv_f32_origin(px + i, out_w, stride_h, stride_w, pad_top, pad_left, &y0, &x0);
                    aot_conv_f32_gather(in_b, in_h, in_w, in_c, filter_h, filter_w, dilation_h, dilation_w, y0, x0,
                                        scratch + i * k);
                }
                aot_f32_range(range, act_min, act_max);
                d.range = range;
                d.stride = out_c * (int32_t)sizeof(float);
                for (c = 0; c < out_c; c += 8, w += k * 8) {
                    d.bias = bias == NULL ? NULL : bias + c;
                    d.out = out_b + px * out_c + c;
                    aot_f32_tile3(scratch, scratch + k, scratch + 2 * k, w, k, &d);
                }
                px++;
                continue;
            }
#endif
            aot_conv_f32_origin(px, out_w, stride_h, stride_w, pad_top, pad_left, &y0, &x0);
            aot_conv_f32_origin(px + rows - 1, out_w, stride_h, stride_w, pad_top, pad_left, &y1, &x1);
            a0 = NULL;
            a1 = NULL;
            if (scratch != NULL) {
                aot_conv_f32_gather(in_b, in_h, in_w, in_c, filter_h, filter_w, dilation_h, dilation_w, y0, x0,
                                    scratch);
                aot_conv_f32_gather(in_b, in_h, in_w, in_c, filter_h, filter_w, dilation_h, dilation_w, y1, x1,
                                    scratch + k);
                a0 = scratch;
                a1 = scratch + k;
                nrows = 1;
            } else if ((filter_w == 1 || dilation_w == 1) && aot_conv_f32_inside(y0, x0, in_h, in_w, span, y_span) &&
                       aot_conv_f32_inside(y1, x1, in_h, in_w, span, y_span)) {
                /* Both windows inside the image (a 1x1 layer's every pair): each filter row's taps in place. */
                a0 = in_b + (y0 * in_w + x0) * in_c;
                a1 = in_b + (y1 * in_w + x1) * in_c;
                nrows = filter_h;
            }
            c = 0;
            if (a0 != NULL) {
                c = aot_conv_f32_blocks(a0, a1, dilation_h * in_w * in_c, nrows, k / nrows, w, block, out_c, bias,
                                        out_b + px * out_c, out_b + (px + rows - 1) * out_c, act_min, act_max);
                w += c * k;
            }
            for (; c < out_c; c += block) {
                float acc[2 * AOT_F32_MAX_BLOCK];
                const int32_t count = out_c - c < block ? out_c - c : block;
                if (a0 != NULL && nrows == 1) { /* K contiguous taps (a window in place of several rows is not) */
                    aot_f32_tile(a0, a1, w, k, block, aot_f32_zeros, acc);
                } else {
                    aot_conv_f32_pair(in_b, in_h, in_w, in_c, w, filter_h, filter_w, block, dilation_h, dilation_w, y0,
                                      x0, y1, x1, acc);
                }
                aot_f32_tile_store(acc, block, bias == NULL ? NULL : bias + c, count, rows, out_b + px * out_c + c,
                                   out_b + (px + rows - 1) * out_c + c, act_min, act_max);
                w += k * block;
            }
        }
    }
}
