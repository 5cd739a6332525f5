/* int8 MUL in the row form of add_s8_rows.c (aot/kernels/mul.h): the output as rows x cols, each input running
 * along a row or holding one value per row.  Per element, the short form of TFLite's requantization proved exact
 * for the op by compiler/ops/common/mul_s8_fast.py: the product of the offset inputs shifted left (doubled), one SMMLAR
 * with the rounding constant and the sign term on the DSP cores, a right shift, the output zero point and the
 * activation clamp.  The output may be the buffer of the operand that runs along the rows. */
#include "aot_sched.h"

#include "aot/kernels/mul.h"
#include "dsp_s8.h"

static inline int32_t mul_s8_elem(int32_t a, int32_t b, const struct aot_mul_s8_params* p)
{
    const int32_t x2 = a * b * (1 << p->left_shift);
    const int32_t r = aot_dsp_smmlar(x2, p->multiplier, p->add + ((x2 >> 31) & p->sign_mask)) >> p->right_shift;
    return aot_dsp_clamp(r + p->out_offset, p->act_min, p->act_max);
}

/* mode: 0 both inputs run along the row, 1 in2 and 2 in1 hold one value per row (a constant in each inlined
 * copy). */
AOT_ALWAYS_INLINE void mul_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                int32_t row_step1, int32_t row_step2, int32_t mode,
                                const struct aot_mul_s8_params* params)
{
    /* A local copy, so that the int8 stores do not make the compiler reload the parameters. */
    const struct aot_mul_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        if (mode == 0) {
            for (i = 0; i < cols; i++) {
                output[i] = (int8_t)mul_s8_elem(in1[i] + p.in1_offset, in2[i] + p.in2_offset, &p);
            }
        } else if (mode == 1) {
            const int32_t b = in2[0] + p.in2_offset;
            for (i = 0; i < cols; i++) {
                output[i] = (int8_t)mul_s8_elem(in1[i] + p.in1_offset, b, &p);
            }
        } else {
            const int32_t a = in1[0] + p.in1_offset;
            for (i = 0; i < cols; i++) {
                output[i] = (int8_t)mul_s8_elem(a, in2[i] + p.in2_offset, &p);
            }
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

void aot_mul_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_mul_s8_params* params)
{
    if (mode == 0) {
        mul_rows(in1, in2, output, rows, cols, row_step1, row_step2, 0, params);
    } else if (mode == 1) {
        mul_rows(in1, in2, output, rows, cols, row_step1, row_step2, 1, params);
    } else {
        mul_rows(in1, in2, output, rows, cols, row_step1, row_step2, 2, params);
    }
}
