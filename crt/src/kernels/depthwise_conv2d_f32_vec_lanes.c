/* Helium's lanes of one channel (aot_dw_lanes_run, from depthwise_conv2d_f32_vec_body.h), a unit of its own: the
 * compiler calls aot_depthwise_conv2d_f32_vec_lanes for a SAME 3x3 layer that the lanes take (aot_dw_lanes_fit:
 * KWS's every depthwise layer), and an image of only such layers links neither the column slides nor the pairs of
 * pixels (the kernel's unit).  On the other cores the entry point is the kernel itself. */
#include "aot_sched.h"

#define AOT_DW_F32_LANES_UNIT 1
#include "depthwise_conv2d_f32_vec_body.h"

#if defined(AOT_DW_F32_MVE)
/* Four pixels of one channel a vector (aot_dw_mve_lanes): SAME 3x3 layers at stride and dilation 1 whose range has
 * no upper bound (ReLU, none; an upper bound, as ReLU6's, clamps in a pass after: aot_dw_mve_min).  The weights are
 * scalars in core registers (VFMA.F32 Qda, Qn, Rm), so a row of the slide down a channel's columns is 3 gathers, 9
 * multiply-adds (the first of a new sum a VFMAS from the bias), a VMAXNM, a scatter and the rows' step: 15 instructions
 * per 36 MACs (the channel-lane slides: 29, the column pairs 55 per 72).  Each sum is the column slides' chain bit for
 * bit: from the bias, the taps in (fy, fx) order, those outside the image skipped by predication, except that a lane
 * whose kx 0 tap is outside the image starts from fmaf(0, w00, bias) (= the bias; a zero's sign aside, with finite
 * weights).  A sum that overflows to +inf stays infinite (the reference stops at FLT_MAX), as on the FPv5 slides' ReLU
 * loop.  Jobs (aot_dw_lj_t), per channel: strips of 4 adjacent columns sliding down the whole height (the left strip's
 * lane 0 and the right strip's lane 3 predicated by P0 at their tap column outside the image), and an odd last column
 * as 4 lanes of its rows in 4 segments (lanes at the image's top or bottom edge predicated at the segment's first or
 * last input row). */
typedef struct {
    uint32_t qoff[4]; /* byte offsets of the lanes' first input row's pixel from the channel's input */
    uint32_t m1;      /* P0: strip, the lanes with their edge tap column; column, those whose first row exists */
    uint32_t m2;      /* column: P0 of the lanes whose last input row exists */
    int32_t iters;    /* the loop's passes (3 rows each, the first entered at row `idx % 3`) */
    int32_t idx;      /* 3 * form (0 left strip, 1 right strip, 2 column) + entry row; 9 ends the jobs */
} aot_dw_lj_t;

/* The asm's frame, copied onto its stack (offsets fixed: the asm reads them; 96 bytes, and a job 32). */
typedef struct {
    const float* wp;         /*  0: the channel's weights (advanced per channel) */
    const float* bp;         /*  4: its bias (zeros without one; advanced per channel) */
    int32_t pad2;            /*  8 */
    const float* inend;      /* 12: the input after the call's last channel (r10 there ends the call) */
    const aot_dw_lj_t* jobs; /* 16 */
    const aot_dw_lj_t* jcur; /* 20: the asm's own (the job after the current one) */
    int32_t pad3[2];         /* 24 */
    uint32_t woff[8];        /* 32: byte offsets of taps 1-8's weights (tap 0's: a gather at offsets 0) */
    const float* in;         /* 64: the input (the call's first channel) */
    int32_t c4;              /* 68: bytes between pixels */
    uint32_t outrb;          /* 72: the output's address less a row's bytes */
    int32_t rowb;            /* 76: bytes between rows */
    float lo;                /* 80: the range's lower bound */
    int32_t pad1[3];         /* 84 */
} aot_dw_lanes_t;

#if defined(__clang__)
#define AOT_DW_LANES_ATTR __attribute__((naked, noinline, aligned(4)))
#else
#define AOT_DW_LANES_ATTR __attribute__((naked, noinline, noipa, aligned(4)))
#endif
/* Registers: r0 the bias, r1-r8 the weights w01..w22 (q7 w00 in every lane), r9-r11 the input at tap columns 0-2
 * of the channel, r12 the output less a row, q4 the lanes' offsets of the current input row, q5 the lower bound,
 * q6 the row step; the sums q0-q2 (F takes its last filter row and is stored, M its middle one, S starts; roles
 * rotating), q3 the gathered input; lr the loop (or the job's fields).  aotdwl_row's roles: 1 F takes fy 2, 2 F is
 * stored, 4 M takes fy 1, 8 S starts (fy 0), 16 M starts from the bias, 32 no step to the next row; k0, k2: the tap
 * column on every lane (1) or predicated by P0 (2); p: every gather and multiply-add predicated by P0. */
AOT_DW_LANES_ATTR static void aot_dw_mve_lanes(const aot_dw_lanes_t* f __attribute__((unused)))
{
    __asm__ volatile(
        ".macro aotdwl_ld p, dst, base\n"
        ".if \\p\n\t"
        "vldrwt.u32 \\dst, [\\base, q4]\n"
        ".else\n\t"
        "vldrw.u32 \\dst, [\\base, q4]\n"
        ".endif\n"
        ".endm\n"
        ".macro aotdwl_fma p, acc, in, w\n"
        ".if \\p\n\t"
        "vfmat.f32 \\acc, \\in, \\w\n"
        ".else\n\t"
        "vfma.f32 \\acc, \\in, \\w\n"
        ".endif\n"
        ".endm\n"
        /* One tap column: base its input, wf/wm/ws the weights of F, M, S; first: kx 0 (S starts: gathered into S
         * itself, then S = S * w00 + bias). */
        ".macro aotdwl_k base, wf, wm, ws, first, f, m, s, roles, p\n"
        ".set aotdwl_n, 1\n"
        ".if (\\roles) & 1\n"
        ".set aotdwl_n, aotdwl_n + 1\n"
        ".endif\n"
        ".if (\\roles) & 4\n"
        ".set aotdwl_n, aotdwl_n + 1\n"
        ".endif\n"
        ".if (\\first) == 0\n"
        ".if (\\roles) & 8\n"
        ".set aotdwl_n, aotdwl_n + 1\n"
        ".endif\n"
        ".endif\n"
        ".if \\p\n"
        ".if aotdwl_n == 1\n\t"
        "vpst\n"
        ".elseif aotdwl_n == 2\n\t"
        "vpstt\n"
        ".elseif aotdwl_n == 3\n\t"
        "vpsttt\n"
        ".else\n\t"
        "vpstttt\n"
        ".endif\n"
        ".endif\n"
        ".if (\\first) && ((\\roles) & 8)\n\t"
        "aotdwl_ld \\p, \\s, \\base\n"
        ".if (\\roles) & 1\n\t"
        "aotdwl_fma \\p, \\f, \\s, \\wf\n"
        ".endif\n"
        ".if (\\roles) & 4\n\t"
        "aotdwl_fma \\p, \\m, \\s, \\wm\n"
        ".endif\n\t"
        "vfmas.f32 \\s, q7, r0\n"
        ".else\n\t"
        "aotdwl_ld \\p, q3, \\base\n"
        ".if (\\roles) & 1\n\t"
        "aotdwl_fma \\p, \\f, q3, \\wf\n"
        ".endif\n"
        ".if (\\roles) & 4\n\t"
        "aotdwl_fma \\p, \\m, q3, \\wm\n"
        ".endif\n"
        ".if (\\first) == 0\n"
        ".if (\\roles) & 8\n\t"
        "aotdwl_fma \\p, \\s, q3, \\ws\n"
        ".endif\n"
        ".endif\n"
        ".endif\n"
        ".endm\n"
        ".macro aotdwl_row f, m, s, roles, k0, k2, p\n"
        ".if (\\roles) & 16\n\t"
        "vdup.32 \\m, r0\n"
        ".endif\n"
        ".if (\\roles) & 13\n\t"
        "aotdwl_k r9, r6, r3, r0, 1, \\f, \\m, \\s, \\roles, (\\p)|((\\k0)>>1)\n\t"
        "aotdwl_k r10, r7, r4, r1, 0, \\f, \\m, \\s, \\roles, \\p\n"
        ".if \\k2\n\t"
        "aotdwl_k r11, r8, r5, r2, 0, \\f, \\m, \\s, \\roles, (\\p)|((\\k2)>>1)\n"
        ".endif\n"
        ".endif\n"
        ".if (\\roles) & 2\n\t"
        "vmaxnm.f32 \\f, \\f, q5\n\t"
        "vstrw.32 \\f, [r12, q4]\n"
        ".endif\n"
        ".if ((\\roles) & 32) == 0\n\t"
        "vadd.i32 q4, q4, q6\n"
        ".endif\n"
        ".endm\n"
        /* One form's entry at loop row e (the sums of its first rows in the registers that row expects). */
        ".macro aotdwl_head nm, e, f, m, k0, k2, col\n"
        ".Laotdwl_\\nm\\()_\\e:\n"
        ".if \\col\n\t"
        "aotdwl_row q3, q3, \\f, 8, \\k0, \\k2, 1\n"
        ".endif\n\t"
        "ldr lr, [lr, #-8]\n"
        ".if \\col\n\t"
        "aotdwl_row q3, \\f, \\m, 12, \\k0, \\k2, 0\n"
        ".else\n\t"
        "aotdwl_row q3, \\f, \\m, 28, \\k0, \\k2, 0\n"
        ".endif\n"
        ".if \\e == 0\n\t"
        "wls lr, lr, .Laotdwl_\\nm\\()_end\n"
        ".else\n\t"
        "dls lr, lr\n\t"
        "b .Laotdwl_\\nm\\()_b\\e\n"
        ".endif\n"
        ".endm\n"
        ".macro aotdwl_form nm, k0, k2, col\n\t"
        "aotdwl_head \\nm, 1, q1, q2, \\k0, \\k2, \\col\n\t"
        "aotdwl_head \\nm, 2, q2, q0, \\k0, \\k2, \\col\n\t"
        "aotdwl_head \\nm, 0, q0, q1, \\k0, \\k2, \\col\n"
        ".Laotdwl_\\nm\\()_b0:\n\t"
        "aotdwl_row q0, q1, q2, 15, \\k0, \\k2, 0\n"
        ".Laotdwl_\\nm\\()_b1:\n\t"
        "aotdwl_row q1, q2, q0, 15, \\k0, \\k2, 0\n"
        ".Laotdwl_\\nm\\()_b2:\n\t"
        "aotdwl_row q2, q0, q1, 15, \\k0, \\k2, 0\n\t"
        "le lr, .Laotdwl_\\nm\\()_b0\n"
        ".Laotdwl_\\nm\\()_end:\n\t"
        "aotdwl_row q0, q1, q3, 7, \\k0, \\k2, 0\n"
        ".if \\col\n\t"
        "ldr lr, [sp, #20]\n\t"
        "vldr P0, [lr, #-12]\n\t"
        "aotdwl_row q1, q3, q3, 35, \\k0, \\k2, 1\n"
        ".else\n\t"
        "aotdwl_row q1, q3, q3, 34, \\k0, \\k2, 0\n"
        ".endif\n\t"
        "ldr lr, [sp, #20]\n\t"
        "aotdwl_go\n"
        ".endm\n"
        /* The next job: its lanes' offsets into q4, its first mask into P0 (VLDR), its entry; lr and the frame's
         * word 20 then point at the job after it (the job's other fields at negative offsets from there). */
        ".macro aotdwl_go\n\t"
        "vldrw.u32 q4, [lr], #32\n\t"
        "vldr P0, [lr, #-16]\n\t"
        "str lr, [sp, #20]\n\t"
        "ldr pc, [lr, #-4]\n"
        ".endm\n\t"
        "push {r4-r11, lr}\n\t"
        "vpush {d8-d15}\n\t"
        "sub sp, sp, #96\n\t"
        "vldrw.u32 q0, [r0]\n\t"
        "vstrw.32 q0, [sp]\n\t"
        "vldrw.u32 q0, [r0, #16]\n\t"
        "vstrw.32 q0, [sp, #16]\n\t"
        "vldrw.u32 q0, [r0, #32]\n\t"
        "vstrw.32 q0, [sp, #32]\n\t"
        "vldrw.u32 q0, [r0, #48]\n\t"
        "vstrw.32 q0, [sp, #48]\n\t"
        "vldrw.u32 q0, [r0, #64]\n\t"
        "vstrw.32 q0, [sp, #64]\n\t"
        "vldrw.u32 q0, [r0, #80]\n\t"
        "vstrw.32 q0, [sp, #80]\n\t"
        "ldr r10, [sp, #64]\n\t"
        "ldr r1, [sp, #68]\n\t"
        "sub r9, r10, r1\n\t"
        "add r11, r10, r1\n\t"
        "ldr r12, [sp, #72]\n\t"
        "ldr r1, [sp, #76]\n\t"
        "vdup.32 q6, r1\n\t"
        "ldr r1, [sp, #80]\n\t"
        "vdup.32 q5, r1\n\t"
        /* Each job's form and entry row (idx) becomes its entry's address, once a call. */
        "ldr lr, [sp, #16]\n\t"
        "adr r1, .Laotdwl_tbl\n"
        ".Laotdwl_fill:\n\t"
        "ldr r2, [lr, #28]\n\t"
        "ldrh r3, [r1, r2, lsl #1]\n\t"
        "add r3, r1, r3\n\t"
        "add r3, r3, #1\n\t"
        "str r3, [lr, #28]\n\t"
        "add lr, lr, #32\n\t"
        "cmp r2, #9\n\t"
        "bne .Laotdwl_fill\n\t"
        "b .Laotdwl_chan\n"
        ".p2align 2\n"
        ".Laotdwl_tbl:\n\t"
        ".hword .Laotdwl_l_0 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_l_1 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_l_2 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_r_0 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_r_1 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_r_2 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_c_0 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_c_1 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_c_2 - .Laotdwl_tbl\n\t"
        ".hword .Laotdwl_done - .Laotdwl_tbl\n"
        /* A channel: its bias into r0, its weights into r1-r8 and q7 (two gathers of four, the ninth a load and a
         * VDUP, fewer cycles than a gather at zero offsets; single-lane moves, whose meaning no assembler or model
         * reads otherwise); the weights' and the bias's pointers (frame words 0 and 1) by one LDRD, post-incremented
         * by the loads, back by one STRD. */
        ".Laotdwl_chan:\n\t"
        "ldrd lr, r8, [sp]\n\t"
        "ldr r0, [r8], #4\n\t"
        "vldrw.u32 q3, [sp, #32]\n\t"
        "vldrw.u32 q0, [lr, q3]\n\t"
        "vldrw.u32 q3, [sp, #48]\n\t"
        "vldrw.u32 q1, [lr, q3]\n\t"
        "ldr r1, [lr], #4\n\t"
        "strd lr, r8, [sp]\n\t"
        "vdup.32 q7, r1\n\t"
        "vmov.32 r1, q0[0]\n\t"
        "vmov.32 r2, q0[1]\n\t"
        "vmov.32 r3, q0[2]\n\t"
        "vmov.32 r4, q0[3]\n\t"
        "vmov.32 r5, q1[0]\n\t"
        "vmov.32 r6, q1[1]\n\t"
        "vmov.32 r7, q1[2]\n\t"
        "vmov.32 r8, q1[3]\n\t"
        "ldr lr, [sp, #16]\n\t"
        "aotdwl_go\n\t"
        "aotdwl_form l, 2, 1, 0\n\t"
        "aotdwl_form r, 1, 2, 0\n\t"
        "aotdwl_form c, 1, 0, 1\n"
        ".Laotdwl_done:\n\t"
        "add r9, r9, #4\n\t"
        "add r10, r10, #4\n\t"
        "add r11, r11, #4\n\t"
        "add r12, r12, #4\n\t"
        "ldr lr, [sp, #12]\n\t"
        "cmp r10, lr\n\t"
        "bne .Laotdwl_chan\n\t"
        "add sp, sp, #96\n\t"
        "vpop {d8-d15}\n\t"
        "pop {r4-r11, pc}\n\t"
        ".purgem aotdwl_form\n\t"
        ".purgem aotdwl_go\n\t"
        ".purgem aotdwl_head\n\t"
        ".purgem aotdwl_row\n\t"
        ".purgem aotdwl_k\n\t"
        ".purgem aotdwl_fma\n\t"
        ".purgem aotdwl_ld");
}

/* A range's upper bound over the lanes' n outputs, in place: the asm's rows have no register left for it (q0-q7 and
 * r0-r12 all taken; a VMINNM there would also cost the unbounded ranges an instruction a row), so a pass after,
 * VMINNM on 4 outputs at a time (a tail-predicated loop: 4 instructions per 36 MACs).  The same bits as the column
 * slides' VMAXNM then VMINNM at the store. */
static void aot_dw_mve_min(float* o, int32_t n, float hi)
{
    uint32_t h;
    memcpy(&h, &hi, sizeof(h));
    __asm__ volatile("vdup.32 q1, %[h]\n\t"
                     "dlstp.32 lr, %[n]\n"
                     "1:\n\t"
                     "vldrw.u32 q0, [%[o]]\n\t"
                     "vminnm.f32 q0, q0, q1\n\t"
                     "vstrw.32 q0, [%[o]], #16\n\t"
                     "letp lr, 1b"
                     : [o] "+r"(o)
                     : [n] "r"(n), [h] "r"(h)
                     : "lr", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "memory");
}

/* A job of n outputs a lane in form `form` (0 left strip, 1 right strip, 2 column): the loop's passes and entry. */
static void aot_dw_lanes_job(aot_dw_lj_t* j, int32_t form, int32_t n)
{
    const int32_t r = n - 2;
    j->iters = (r + 2) / 3;
    j->idx = 3 * form + (3 - r % 3) % 3;
}

/* One batch: the columns as jobs, up to 3 a call (each call takes every channel); then an upper bound. */
static void aot_dw_lanes_batch(const float* in_b, int32_t in_h, int32_t in_w, int32_t in_c, const float* filter,
                               const float* bias, float* out_b, float act_min, float act_max)
{
    static const float zeros[16] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                                    0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    const int32_t c4 = in_c * 4, rowb = in_w * c4;
    aot_dw_lanes_t f;
    aot_dw_lj_t jobs[4];
    int32_t idx[3];
    int32_t x = 0, i, nj = 0;
    f.pad2 = 0;
    f.jobs = jobs;
    f.jcur = jobs;
    f.pad3[0] = f.pad3[1] = 0;
    for (i = 0; i < 8; i++) {
        f.woff[i] = (uint32_t)((i + 1) * c4);
    }
    f.c4 = c4;
    f.rowb = rowb;
    f.lo = act_min;
    f.pad1[0] = f.pad1[1] = f.pad1[2] = 0;
    while (x < in_w) {
        aot_dw_lj_t* j = &jobs[nj];
        if (in_w - x == 1) {
            /* The odd last column: 4 lanes of its rows, segments of L rows starting at s (the last at the bottom). */
            const int32_t len = in_h < 8 ? 2 : (in_h + 3) / 4;
            uint32_t top = 0u, bottom = 0u;
            for (i = 0; i < 4; i++) {
                const int32_t s = i * (in_h - len) / 3;
                j->qoff[i] = (uint32_t)((s - 1) * rowb + x * c4);
                top |= s >= 1 ? 0xfu << (4 * i) : 0u;
                bottom |= s + len <= in_h - 1 ? 0xfu << (4 * i) : 0u;
            }
            j->m1 = top;
            j->m2 = bottom;
            aot_dw_lanes_job(j, 2, len);
            x = in_w;
        } else {
            /* A strip of 4 columns at x0 (the last one ends at the last column, over its left neighbour's). */
            const int32_t x0 = in_w - x < 4 ? in_w - 4 : x;
            for (i = 0; i < 4; i++) {
                j->qoff[i] = (uint32_t)((x0 + i) * c4);
            }
            j->m2 = 0u;
            if (x0 + 4 == in_w) {
                j->m1 = 0x0fffu;
                aot_dw_lanes_job(j, 1, in_h);
            } else {
                j->m1 = x0 == 0 ? 0xfff0u : 0xffffu;
                aot_dw_lanes_job(j, 0, in_h);
            }
            x = x0 + 4;
        }
        idx[nj] = j->idx;
        nj++;
        if (nj == 3 || x >= in_w) {
            /* Without a bias, 16 channels a call read their bias from zeros. */
            const int32_t step = bias != NULL ? in_c : 16;
            int32_t c;
            for (c = 0; c < in_c; c += step) {
                /* The asm turns each idx into its entry's address. */
                for (i = 0; i < nj; i++) {
                    jobs[i].idx = idx[i];
                }
                jobs[nj].idx = 9;
                f.wp = filter + c;
                f.bp = bias != NULL ? bias : zeros;
                f.in = in_b + c;
                f.inend = f.in + (in_c - c < step ? in_c - c : step);
                f.outrb = (uint32_t)(uintptr_t)(out_b + c) - (uint32_t)rowb;
                aot_dw_mve_lanes(&f);
            }
            nj = 0;
        }
    }
    if (act_max < FLT_MAX) {
        aot_dw_mve_min(out_b, in_h * in_w * in_c, act_max);
    }
}

void aot_dw_lanes_run(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                      const float* filter, const float* bias, float* output, float act_min, float act_max)
{
    int32_t n;
    for (n = 0; n < batches; n++) {
        aot_dw_lanes_batch(input + n * in_h * in_w * in_c, in_h, in_w, in_c, filter, bias,
                           output + n * in_h * in_w * in_c, act_min, act_max);
    }
}
#endif

#if defined(AOT_DW_F32_MVE)
/* Weak: the compiler calls this entry point only for layers the lanes take; another layer here would need the
 * kernel's unit linked by a call of its own. */
void aot_depthwise_conv2d_f32_vec(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                  const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                  float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                  int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                  float act_min, float act_max) __attribute__((weak));
#endif

void aot_depthwise_conv2d_f32_vec_lanes(const float* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                        const float* filter, int32_t filter_h, int32_t filter_w, const float* bias,
                                        float* output, int32_t out_h, int32_t out_w, int32_t stride_h, int32_t stride_w,
                                        int32_t dilation_h, int32_t dilation_w, int32_t pad_top, int32_t pad_left,
                                        float act_min, float act_max)
{
#if defined(AOT_DW_F32_MVE)
    if (aot_dw_lanes_fit(in_h, in_w, filter_h, filter_w, out_h, out_w, stride_h, stride_w, dilation_h, dilation_w,
                         pad_top, pad_left)) {
        aot_dw_lanes_run(input, batches, in_h, in_w, in_c, filter, bias, output, act_min, act_max);
        return;
    }
#endif
    aot_depthwise_conv2d_f32_vec(input, batches, in_h, in_w, in_c, filter, filter_h, filter_w, bias, output, out_h,
                                 out_w, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, act_min,
                                 act_max);
}
