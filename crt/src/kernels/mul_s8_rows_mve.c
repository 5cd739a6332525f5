/* int8 MUL on Helium in the row form of mul_s8_rows.c (aot/kernels/mul.h): four int32 lanes per vector (VLDRB.S32
 * widens, VSTRB.32 narrows), the last columns of a row under a VCTP predicate.  The requantization is mul_s8_rows.c's
 * with SMMLAR's integer identity written as VRMULH (the rounded high half of the product) plus the add constant
 * and the masked sign term: the same integers for every input, so the compiler's exhaustive proof
 * (compiler/ops/common/mul_s8_fast.py) covers this kernel too.  Without MVE (a host build) the portable kernel runs. */
#include "aot_sched.h"

#include "aot/kernels/mul.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

static inline int32x4_t requant(int32x4_t a, int32x4_t b, const struct aot_mul_s8_params* p)
{
    const int32x4_t x2 = vshlq_r_s32(vmulq_s32(a, b), p->left_shift);
    const int32x4_t sign = vandq_s32(vshrq_n_s32(x2, 31), vdupq_n_s32(p->sign_mask));
    const int32x4_t high = vrmulhq_s32(x2, vdupq_n_s32(p->multiplier));
    const int32x4_t r = vshlq_r_s32(vaddq_n_s32(vaddq_s32(high, sign), p->add), -p->right_shift);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(r, p->out_offset), vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
mul_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols, int32_t row_step1,
             int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params)
{
    const struct aot_mul_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        int32x4_t a = vdupq_n_s32(in1[0] + p.in1_offset), b = vdupq_n_s32(in2[0] + p.in2_offset);
        for (i = 0; i < cols; i += 4) {
            const mve_pred16_t pred = vctp32q((uint32_t)(cols - i));
            if (mode != 2) {
                a = vaddq_n_s32(vldrbq_z_s32(in1 + i, pred), p.in1_offset);
            }
            if (mode != 1) {
                b = vaddq_n_s32(vldrbq_z_s32(in2 + i, pred), p.in2_offset);
            }
            vstrbq_p_s32(output + i, requant(a, b, &p), pred);
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

void aot_mul_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params)
{
    if (mode == 0) {
        mul_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 0, params);
    } else if (mode == 1) {
        mul_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 1, params);
    } else {
        mul_rows_mve(in1, in2, output, rows, cols, row_step1, row_step2, 2, params);
    }
}

#else

void aot_mul_s8_rows_mve(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                         int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params)
{
    aot_mul_s8_rows(in1, in2, output, rows, cols, row_step1, row_step2, mode, params);
}

#endif
