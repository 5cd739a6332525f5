/* int8 ADD and SUB whose operands broadcast in the common ways (aot/kernels/add.h): the output seen as `rows` rows
 * of `cols` elements, each input either running along a row (one element per output element) or holding one value
 * per row, its row start advancing by its own step (the row length, 1, or 0 for an operand repeated on every row).
 * [1,H,W,C] + [1,1,1,C] is one row step of 0; [1,H,W,C] * [1,1,1,1] a value repeated in every row; [1,H,W,C] +
 * [1,H,W,1] one value per row with step 1.  The arithmetic is add_s8_elem.h's short form, which the compiler has
 * proved exact on every int8 pair before choosing these kernels; an operand constant along a row is rescaled once
 * per row.  The output may be the buffer of the operand that runs along the rows. */
#include "aot_sched.h"

#include "aot/kernels/add.h"
#include "aot/kernels/sub.h"
#include "add_s8_elem.h"

/* mode: 0 both operands run along the row, 1 in2 holds one value per row, 2 in1 holds one value per row (constants
 * at the two call sites' inlined copies, so each form gets its own loop). */
AOT_ALWAYS_INLINE void add_sub_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                    int32_t row_step1, int32_t row_step2, int32_t mode,
                                    const struct aot_add_s8_params* params, int subtract)
{
    /* A local copy, so that the int8 stores do not make the compiler reload the parameters. */
    const struct aot_add_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        if (mode == 0) {
            for (i = 0; i < cols; i++) {
                output[i] = (int8_t)aot_add_s8_elem(in1[i], in2[i], &p, subtract);
            }
        } else if (mode == 1) {
            const int32_t b = aot_add_s8_rescale(in2[0], p.in2_bias, p.in2_multiplier, p.in2_add, p.in2_shift);
            for (i = 0; i < cols; i++) {
                const int32_t a = aot_add_s8_rescale(in1[i], p.in1_bias, p.in1_multiplier, p.in1_add, p.in1_shift);
                const int32_t sum = subtract ? a - b : a + b;
                output[i] = (int8_t)aot_dsp_clamp(aot_dsp_requant(sum, p.out_multiplier, p.out_add, p.out_shift),
                                                  p.act_min, p.act_max);
            }
        } else {
            const int32_t a = aot_add_s8_rescale(in1[0], p.in1_bias, p.in1_multiplier, p.in1_add, p.in1_shift);
            for (i = 0; i < cols; i++) {
                const int32_t b = aot_add_s8_rescale(in2[i], p.in2_bias, p.in2_multiplier, p.in2_add, p.in2_shift);
                const int32_t sum = subtract ? a - b : a + b;
                output[i] = (int8_t)aot_dsp_clamp(aot_dsp_requant(sum, p.out_multiplier, p.out_add, p.out_shift),
                                                  p.act_min, p.act_max);
            }
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

AOT_ALWAYS_INLINE void add_sub_rows_of(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                       int32_t row_step1, int32_t row_step2, int32_t mode,
                                       const struct aot_add_s8_params* params, int subtract)
{
    if (mode == 0) {
        add_sub_rows(in1, in2, output, rows, cols, row_step1, row_step2, 0, params, subtract);
    } else if (mode == 1) {
        add_sub_rows(in1, in2, output, rows, cols, row_step1, row_step2, 1, params, subtract);
    } else {
        add_sub_rows(in1, in2, output, rows, cols, row_step1, row_step2, 2, params, subtract);
    }
}

void aot_add_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    add_sub_rows_of(in1, in2, output, rows, cols, row_step1, row_step2, mode, params, 0);
}

void aot_sub_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                     int32_t row_step1, int32_t row_step2, int32_t mode, const struct aot_add_s8_params* params)
{
    add_sub_rows_of(in1, in2, output, rows, cols, row_step1, row_step2, mode, params, 1);
}
