/* The Helium requantization (crt/src/kernels/mve_s8.h: aot_mve_requant, aot_mve_requant_right for the right shifts
 * and the fused ADD's aot_mve_add_elem)
 * against the CRT's reference arithmetic, on the Cortex-M55 under QEMU (mps3-an547): every shift TFLite allows
 * (-31..31), multipliers 0, 2^30, 2^31 - 1 and pseudo-random ones, accumulators at the int32 extremes, small
 * values, pseudo-random ones and exact negative and positive ties of every right shift.  Exit code = mismatches. */
#include <stdint.h>
#include <stdio.h>

#include "../src/kernels/mve_s8.h"

static uint32_t seed = 12345u;

static uint32_t next(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed;
}

static int32_t fails;

static void check(const int32_t* acc, int32_t multiplier, int32_t shift)
{
#if defined(__ARM_FEATURE_MVE)
    int32_t got[4], i;
    vst1q_s32(got, aot_mve_requant(vld1q_s32(acc), vdupq_n_s32(multiplier), vdupq_n_s32(shift)));
    for (i = 0; i < 4; i++) {
        const int32_t want = aot_multiply_by_quantized_multiplier(acc[i], multiplier, shift);
        if (got[i] != want && fails++ < 10) {
            printf("acc %ld mult %ld shift %ld: got %ld want %ld\n", (long)acc[i], (long)multiplier, (long)shift,
                   (long)got[i], (long)want);
        }
    }
    if (shift < 0) {
        vst1q_s32(got, aot_mve_requant_right(vld1q_s32(acc), vdupq_n_s32(multiplier), vdupq_n_s32(shift)));
        for (i = 0; i < 4; i++) {
            const int32_t want = aot_multiply_by_quantized_multiplier(acc[i], multiplier, shift);
            if (got[i] != want && fails++ < 10) {
                printf("right: acc %ld mult %ld shift %ld: got %ld want %ld\n", (long)acc[i], (long)multiplier,
                       (long)shift, (long)got[i], (long)want);
            }
        }
    }
#else
    (void)acc;
    (void)multiplier;
    (void)shift;
#endif
}

int main(void)
{
    static const int32_t fixed_mults[] = {0, 1 << 30, (1 << 30) + 1, 0x7FFFFFFF, 1518500250};
    int32_t shift, m, i, r;
    for (shift = -31; shift <= 31; shift++) {
        for (m = 0; m < 40; m++) {
            const int32_t mult = m < 5 ? fixed_mults[m] : (int32_t)((next() >> 1) | 0x40000000u);
            int32_t acc[4] = {INT32_MIN, INT32_MAX, -1, 1};
            check(acc, mult, shift);
            for (i = 0; i < 64; i++) {
                const int32_t small = (int32_t)(next() % 2001u) - 1000;
                acc[0] = (int32_t)next();
                acc[1] = (int32_t)next() >> (next() % 31u);
                acc[2] = small;
                acc[3] = -small;
                check(acc, mult, shift);
            }
        }
        /* Ties: with the multiplier 2^30 and an even accumulator the high multiply is exactly acc / 2, so
         * acc = 2 * (2k + 1) * 2^(r - 1) is a tie of the rounding by 2^r (r = -shift). */
        if (shift < 0 && shift > -31) {
            r = -shift;
            for (i = 0; i < 32; i++) {
                const int32_t odd = 2 * (int32_t)(next() % 1000u) + 1;
                const int64_t t = (int64_t)odd << r;
                if (t < INT32_MAX) {
                    int32_t acc[4];
                    acc[0] = (int32_t)t;
                    acc[1] = (int32_t)-t;
                    acc[2] = (int32_t)t + 2;
                    acc[3] = (int32_t)-t - 2;
                    check(acc, 1 << 30, shift);
                }
            }
        }
    }
    printf("mve requant: %ld mismatches\n", (long)fails);
    return fails != 0;
}
