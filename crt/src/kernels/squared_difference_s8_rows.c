/* int8 SQUARED_DIFFERENCE in the row form of add_s8_rows.c (aot/kernels/squared_difference.h): the output as rows x
 * cols, each input running along a row or holding one value per row.  Each of TFLite Micro's three requantizations
 * (the two inputs to twice the larger scale, the square to the output) is the short form proved exact for the op by
 * compiler/ops/common/sqd_s8_fast.py: one SMMLAR on the doubled value with a rounding add and a masked sign term, then
 * a right shift.  The output may be the buffer of the operand that runs along the rows. */
#include "aot_sched.h"

#include "aot/kernels/squared_difference.h"
#include "dsp_s8.h"

/* (add + ((x2 >> 31) & mask) + round(x2 * m / 2^32)) >> shift with x2 = x << left. */
static inline int32_t short_step(int32_t x, int32_t left, int32_t m, int32_t add, int32_t mask, int32_t shift)
{
    const int32_t x2 = x * (1 << left);
    return aot_dsp_smmlar(x2, m, add + ((x2 >> 31) & mask)) >> shift;
}

static inline int32_t in1_of(int32_t x, const struct aot_squared_difference_s8_params* p)
{
    return short_step(x + p->in1_offset, p->in1_left, p->in1_multiplier, p->in1_add, p->in1_mask, p->in1_shift);
}

static inline int32_t in2_of(int32_t x, const struct aot_squared_difference_s8_params* p)
{
    return short_step(x + p->in2_offset, p->in2_left, p->in2_multiplier, p->in2_add, p->in2_mask, p->in2_shift);
}

static inline int8_t out_of(int32_t a, int32_t b, const struct aot_squared_difference_s8_params* p)
{
    const int32_t d = a - b;
    const int32_t v =
        short_step(d * d, p->out_left, p->out_multiplier, p->out_add, p->out_mask, p->out_shift) + p->out_offset;
    return (int8_t)aot_dsp_clamp(v, -128, 127);
}

/* mode: 0 both inputs run along the row, 1 in2 and 2 in1 hold one value per row (a constant in each inlined
 * copy). */
AOT_ALWAYS_INLINE void sqd_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                int32_t row_step1, int32_t row_step2, int32_t mode,
                                const struct aot_squared_difference_s8_params* params)
{
    /* A local copy, so that the int8 stores do not make the compiler reload the parameters. */
    const struct aot_squared_difference_s8_params p = *params;
    int32_t r, i;
    for (r = 0; r < rows; r++) {
        if (mode == 0) {
            for (i = 0; i < cols; i++) {
                output[i] = out_of(in1_of(in1[i], &p), in2_of(in2[i], &p), &p);
            }
        } else if (mode == 1) {
            const int32_t b = in2_of(in2[0], &p);
            for (i = 0; i < cols; i++) {
                output[i] = out_of(in1_of(in1[i], &p), b, &p);
            }
        } else {
            const int32_t a = in1_of(in1[0], &p);
            for (i = 0; i < cols; i++) {
                output[i] = out_of(a, in2_of(in2[i], &p), &p);
            }
        }
        in1 += row_step1;
        in2 += row_step2;
        output += cols;
    }
}

void aot_squared_difference_s8_rows(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t rows, int32_t cols,
                                    int32_t row_step1, int32_t row_step2, int32_t mode,
                                    const struct aot_squared_difference_s8_params* params)
{
    if (mode == 0) {
        sqd_rows(in1, in2, output, rows, cols, row_step1, row_step2, 0, params);
    } else if (mode == 1) {
        sqd_rows(in1, in2, output, rows, cols, row_step1, row_step2, 1, params);
    } else {
        sqd_rows(in1, in2, output, rows, cols, row_step1, row_step2, 2, params);
    }
}
