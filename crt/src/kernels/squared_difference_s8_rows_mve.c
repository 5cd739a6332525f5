/* int8 SQUARED_DIFFERENCE on Helium in the row form of squared_difference_s8_rows.c: four int32 lanes per vector
 * (VLDRB.S32 widens, VSTRB.32 narrows), the last columns of a row under a VCTP predicate.  Each requantization is
 * that file's short step with SMMLAR's integer identity written as VRMULH plus the add constant and the masked sign
 * term: the same integers for every input, so the compiler's exhaustive proof (compiler/ops/common/sqd_s8_fast.py)
 * covers this kernel too.  Without MVE (a host build) the portable kernel runs. */
#include "aot_sched.h"

#include "aot/kernels/squared_difference.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

static inline int32x4_t short_step_mve(int32x4_t x, int32_t left, int32_t m, int32_t add, int32_t mask, int32_t shift)
{
    const int32x4_t x2 = vshlq_r_s32(x, left);
    const int32x4_t sign = vandq_s32(vshrq_n_s32(x2, 31), vdupq_n_s32(mask));
    return vshlq_r_s32(vaddq_n_s32(vaddq_s32(vrmulhq_s32(x2, vdupq_n_s32(m)), sign), add), -shift);
}

static inline int32x4_t in1_of_mve(int32x4_t x, const struct aot_squared_difference_s8_params* p)
{
    return short_step_mve(vaddq_n_s32(x, p->in1_offset), p->in1_left, p->in1_multiplier, p->in1_add, p->in1_mask,
                          p->in1_shift);
}

static inline int32x4_t in2_of_mve(int32x4_t x, const struct aot_squared_difference_s8_params* p)
{
    return short_step_mve(vaddq_n_s32(x, p->in2_offset), p->in2_left, p->in2_multiplier, p->in2_add, p->in2_mask,
                          p->in2_shift);
}

static inline int32x4_t out_of_mve(int32x4_t a, int32x4_t b, const struct aot_squared_difference_s8_params* p)
{
    const int32x4_t d = vsubq_s32(a, b);
    const int32x4_t v = vaddq_n_s32(
        short_step_mve(vmulq_s32(d, d), p->out_left, p->out_multiplier, p->out_add, p->out_mask, p->out_shift),
        p->out_offset);
    return vminq_s32(vmaxq_s32(v, vdupq_n_s32(-128)), vdupq_n_s32(127));
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
sqd_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols, int32_t row_step1,
             int32_t row_step2, int32_t mode, const struct aot_squared_difference_s8_params* params)
{
    const struct aot_squared_difference_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        int32x4_t a = vdupq_n_s32(0), b = vdupq_n_s32(0);
        if (mode == 2) {
            a = in1_of_mve(vdupq_n_s32(in1[0]), &p);
        }
        if (mode == 1) {
            b = in2_of_mve(vdupq_n_s32(in2[0]), &p);
        }
        for (i = 0; i < cols; i += 4) {
            const mve_pred16_t pred = vctp32q((uint32_t)(cols - i));
            if (mode != 2) {
                a = in1_of_mve(vldrbq_z_s32(in1 + i, pred), &p);
            }
            if (mode != 1) {
                b = in2_of_mve(vldrbq_z_s32(in2 + i, pred), &p);
            }
            vstrbq_p_s32(output + i, out_of_mve(a, b, &p), pred);
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

void aot_squared_difference_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows,
                                        int32_t cols, int32_t row_step1, int32_t row_step2, int32_t mode,
                                        const struct aot_squared_difference_s8_params* params)
{
    if (mode == 0) {
        sqd_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 0, params);
    } else if (mode == 1) {
        sqd_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 1, params);
    } else {
        sqd_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 2, params);
    }
}

#else

void aot_squared_difference_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows,
                                        int32_t cols, int32_t row_step1, int32_t row_step2, int32_t mode,
                                        const struct aot_squared_difference_s8_params* params)
{
    aot_squared_difference_s8_rows(in1, in2, output, rows, cols, row_step1, row_step2, mode, params);
}

#endif
