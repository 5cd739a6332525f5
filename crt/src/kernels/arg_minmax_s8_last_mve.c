/* int8 ARG_MAX / ARG_MIN over the last axis on Helium (aot/kernels/arg_minmax.h).  Pass 1: VMAXV / VMINV fold 16
 * values per vector into the running extreme (the last axis_size % 16 under a VCTP predicate).  Pass 2: a VCMP of
 * 16 values with the extreme gives one predicate bit per byte lane; the first set bit is the index. */
#include "aot_sched.h"

#include "aot/kernels/arg_minmax.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

static inline int32_t row_extreme_mve(const int8_t* x, int32_t n, int32_t is_max)
{
    int32_t k, best = x[0];
    for (k = 0; k < n; k += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(n - k));
        const int8x16_t v = vldrbq_z_s8(x + k, p);
        best = is_max ? vmaxvq_p_s8((int8_t)best, v, p) : vminvq_p_s8((int8_t)best, v, p);
    }
    return best;
}

static inline int32_t first_index_mve(const int8_t* x, int32_t n, int32_t v)
{
    int32_t k;
    for (k = 0;; k += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(n - k));
        const mve_pred16_t hit = vcmpeqq_m_n_s8(vldrbq_z_s8(x + k, p), (int8_t)v, p);
        if (hit != 0) {
            return k + (int32_t)__builtin_ctz(hit);
        }
    }
}

/* Inlined twice, with is_max a constant: the comparisons of the loops are chosen once. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
argmm_rows_mve(const int8_t* input, int32_t* output, int32_t rows, int32_t n, int32_t is_max)
{
    int32_t r;
    for (r = 0; r < rows; r++) {
        output[r] = first_index_mve(input, n, row_extreme_mve(input, n, is_max));
        input += n;
    }
}

void aot_arg_minmax_s8_last_mve(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max)
{
    if (is_max) {
        argmm_rows_mve(input, output, rows, axis_size, 1);
    } else {
        argmm_rows_mve(input, output, rows, axis_size, 0);
    }
}

#else

void aot_arg_minmax_s8_last_mve(const int8_t* input, int32_t* output, int32_t rows, int32_t axis_size, int32_t is_max)
{
    aot_arg_minmax_s8(input, output, rows, axis_size, 1, is_max);
}

#endif
