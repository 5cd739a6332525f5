/* int8 ADD and SUB on Helium in the row form of add_s8_rows.c (aot/kernels/add.h; the same-shape ADD is one row).
 * Four int32 lanes per vector (VLDRB.S32 widens four int8 values, VSTRB.32 narrows them back), the last columns of
 * a row under a VCTP predicate.  Each step of add_s8_elem.h's short arithmetic, (add + (acc2 >> 31) + the rounded
 * high word of acc2 * m) >> rs, is SMMLAR's integer identity written with VRMULH (the rounded high half of the
 * 64-bit product), an add of the sign and of the constant, and an arithmetic shift: the same integers for every
 * input, so the compiler's exhaustive proof of that arithmetic (compiler/ops/common/add_s8_fast.py) covers this kernel
 * too.  Without MVE (a host build) the portable row kernels run. */
#include "aot_sched.h"

#include "aot/kernels/add.h"
#include "aot/kernels/sub.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

/* (add + (acc2 >> 31) + round(acc2 * m / 2^32)) >> rs on four lanes. */
static inline int32x4_t requant_x2(int32x4_t acc2, int32_t m, int32_t add, int32_t rs)
{
    const int32x4_t high = vrmulhq_s32(acc2, vdupq_n_s32(m));
    return vshlq_r_s32(vaddq_n_s32(vaddq_s32(high, vshrq_n_s32(acc2, 31)), add), -rs);
}

/* One input (x + offset) << 21, i.e. the doubled accumulator, rescaled to the common scale. */
static inline int32x4_t rescale(int32x4_t x, int32_t bias, int32_t m, int32_t add, int32_t rs)
{
    return requant_x2(vaddq_n_s32(vshlq_n_s32(x, 21), bias), m, add, rs);
}

static inline int32x4_t finish(int32x4_t sum, const struct aot_add_s8_params* p)
{
    /* The sign term of the doubled sum is the sum's own (|sum| < 2^30, proved with the parameters). */
    const int32x4_t high = vrmulhq_s32(vaddq_s32(sum, sum), vdupq_n_s32(p->out_multiplier));
    const int32x4_t r = vshlq_r_s32(vaddq_n_s32(vaddq_s32(high, vshrq_n_s32(sum, 31)), p->out_add), -p->out_shift);
    return vminq_s32(vmaxq_s32(r, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
}

/* mode as in add_s8_rows.c: 0 both operands run along the row, 1 in2 and 2 in1 hold one value per row (constants
 * in each inlined copy). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
add_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols, int32_t row_step1,
             int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params, int subtract)
{
    const struct aot_add_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        int32x4_t a = vdupq_n_s32(0), b = vdupq_n_s32(0);
        if (mode == 2) {
            a = rescale(vdupq_n_s32(in1[0]), p.in1_bias, p.in1_multiplier, p.in1_add, p.in1_shift);
        }
        if (mode == 1) {
            b = rescale(vdupq_n_s32(in2[0]), p.in2_bias, p.in2_multiplier, p.in2_add, p.in2_shift);
        }
        for (i = 0; i < cols; i += 4) {
            const mve_pred16_t pred = vctp32q((uint32_t)(cols - i));
            if (mode != 2) {
                a = rescale(vldrbq_z_s32(in1 + i, pred), p.in1_bias, p.in1_multiplier, p.in1_add, p.in1_shift);
            }
            if (mode != 1) {
                b = rescale(vldrbq_z_s32(in2 + i, pred), p.in2_bias, p.in2_multiplier, p.in2_add, p.in2_shift);
            }
            vstrbq_p_s32(output + i, finish(subtract ? vsubq_s32(a, b) : vaddq_s32(a, b), &p), pred);
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
dispatch(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols, int32_t row_step1,
         int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params, int subtract)
{
    if (mode == 0) {
        add_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 0, params, subtract);
    } else if (mode == 1) {
        add_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 1, params, subtract);
    } else {
        add_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 2, params, subtract);
    }
}

void aot_add_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    dispatch(in1, in2, output, rows, cols, row_step1, row_step2, mode, params, 0);
}

void aot_sub_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    dispatch(in1, in2, output, rows, cols, row_step1, row_step2, mode, params, 1);
}

#else

void aot_add_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    aot_add_s8_rows(in1, in2, output, rows, cols, row_step1, row_step2, mode, params);
}

void aot_sub_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    aot_sub_s8_rows(in1, in2, output, rows, cols, row_step1, row_step2, mode, params);
}

#endif
