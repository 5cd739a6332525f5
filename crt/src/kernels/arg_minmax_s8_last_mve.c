/* int8 ARG_MAX / ARG_MIN over the last axis on Helium (aot/kernels/arg_minmax.h).
 *
 * One pass whose instruction count depends on the row's length only, never on where the extreme lies (so the
 * compiler's cost model can price it before the data exist): sixteen byte lanes of running extremes and, beside
 * them, the index of the vector each lane's extreme came from.  A VCMP sets the predicate of the lanes where the new
 * value wins strictly and two VPSELs take the value and the vector index there, so each lane keeps the first
 * position of its extreme; the last axis_size % 16 values are read under a VCTP predicate.  Blocks of at most 256
 * vectors keep the index in a byte.  A block is folded by VMAXV / VMINV (its extreme), VMINV of the vector indices of
 * the lanes that hold it, and the first lane holding both: the first index, as TFLite Micro answers ties.  Blocks
 * after the first replace the row's answer only with a strictly better extreme. */
#include "aot_sched.h"

#include "aot/kernels/arg_minmax.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

/* At most 256 vectors in a block: a lane's vector index stays in a byte. */
#define BLOCK_VALUES 4096

/* The lanes of *m that v beats strictly (of the first `tail` lanes, with a tail) take v, and the same lanes of *at
 * take k.  In assembly: GCC 12 copies an intrinsic's predicate out of VPR and back (VMRS, SXTH, VMSR) before each
 * use, three of the loop's nine instructions. */
#define AOT_ARGMM_TAKE(cond)                                                                                           \
    __asm__("vcmp.s8 " cond ", %q[v], %q[m]\n\tvpsel %q[m], %q[v], %q[m]\n\tvpsel %q[a], %q[k], %q[a]"                 \
            : [m] "+w"(m), [a] "+w"(at)                                                                                \
            : [v] "w"(v), [k] "w"(k)                                                                                   \
            : "p0")
#define AOT_ARGMM_TAKE_TAIL(cond)                                                                                      \
    __asm__("vctp.8 %[n]\n\tvpstt\n\tvldrbt.u8 %q[v], [%[x]]\n\tvcmpt.s8 " cond                                        \
            ", %q[v], %q[m]\n\tvpsel %q[m], %q[v], %q[m]\n\tvpsel %q[a], %q[k], %q[a]"                                 \
            : [m] "+w"(m), [a] "+w"(at), [v] "=&w"(v)                                                                  \
            : [k] "w"(k), [x] "r"(x), [n] "r"(n & 15), "m"(*(const int8_t(*)[16])x)                                    \
            : "p0")

/* The first position of the extreme of the n values (1..BLOCK_VALUES) at x; the extreme in *extreme.  A block of
 * fewer than 16 values starts its lanes at the value no input beats (-128 for the maximum, 127 for the minimum): a
 * lane that keeps it either read that value at its own position or read nothing, and then lane 0 did (every value
 * is the start), at a lesser position. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int32_t
block_mve(const int8_t* x, int32_t n, int32_t is_max, int32_t* extreme)
{
    int8x16_t m, v;
    uint8x16_t at = vdupq_n_u8(0), k = vdupq_n_u8(1);
    int32_t e, i;
    uint32_t first = 0;
    mve_pred16_t hit;
    if (n >= 16) {
        m = vld1q_s8(x);
        for (i = n >> 4; --i > 0;) {
            x += 16;
            v = vld1q_s8(x);
            if (is_max) {
                AOT_ARGMM_TAKE("gt");
            } else {
                AOT_ARGMM_TAKE("lt");
            }
            k = vaddq_n_u8(k, 1);
        }
        x += 16;
    } else {
        m = vdupq_n_s8(is_max ? (int8_t)-128 : (int8_t)127);
        k = at;
    }
    if ((n & 15) != 0) {
        if (is_max) {
            AOT_ARGMM_TAKE_TAIL("gt");
        } else {
            AOT_ARGMM_TAKE_TAIL("lt");
        }
    }
    e = is_max ? vmaxvq_s8((int8_t)-128, m) : vminvq_s8((int8_t)127, m);
    hit = vcmpeqq_n_s8(m, (int8_t)e);
    if (n > 16) { /* the first vector holding the extreme */
        first = vminvq_p_u8(255u, at, hit);
        hit = vcmpeqq_m_n_u8(at, (uint8_t)first, hit);
    }
    *extreme = e;
    return (int32_t)(first * 16u + (uint32_t)__builtin_ctz(hit));
}

/* Inlined twice, with is_max a constant: the comparisons of the loops are chosen once. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
argmm_rows_mve(const int8_t* input, int32_t* output, int32_t rows, int32_t n, int32_t is_max)
{
    int32_t r, base, best, at, v, pos;
    for (r = 0; r < rows; r++) {
        at = block_mve(input, n < BLOCK_VALUES ? n : BLOCK_VALUES, is_max, &best);
        for (base = BLOCK_VALUES; base < n; base += BLOCK_VALUES) {
            pos = block_mve(input + base, n - base < BLOCK_VALUES ? n - base : BLOCK_VALUES, is_max, &v);
            if (is_max ? v > best : v < best) {
                best = v;
                at = base + pos;
            }
        }
        output[r] = at;
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
