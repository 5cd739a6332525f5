/* The inline exact requantization of the recurrent kernels (crt/src/kernels/requant_exact.h: aot_rq, its SMLAL
 * form for right shifts and its left-shift form) against the CRT's aot_multiply_by_quantized_multiplier: every
 * shift TFLite allows (-31..31), multipliers 0, 2^30, 2^31 - 1 and pseudo-random ones, accumulators at the int32
 * extremes, small values, pseudo-random ones of every magnitude and the exact ties of every right shift (both
 * signs, where the rounding half away from zero decides). Built for the host, the Cortex-M4 (the inline assembly
 * path) and the Cortex-M3 (the portable path) and run under QEMU. Exit code = mismatches (capped). */
#include <stdint.h>
#include <stdio.h>

#include "aot/requant.h"
#include "../src/kernels/requant_exact.h"

static uint32_t seed = 12345u;

static uint32_t next(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed ^ (seed >> 15);
}

static int32_t fails;

static void check(int32_t x, int32_t multiplier, int32_t shift)
{
    const struct aot_rq q = aot_rq_prepare(multiplier, shift);
    const int32_t got = aot_rq(x, &q);
    const int32_t want = aot_multiply_by_quantized_multiplier(x, multiplier, shift);
    if (got != want && fails++ < 10) {
        printf("x %ld mult %ld shift %ld: got %ld want %ld\n", (long)x, (long)multiplier, (long)shift, (long)got,
               (long)want);
    }
}

int main(void)
{
    static const int32_t fixed[] = {0,
                                    1,
                                    -1,
                                    2,
                                    -2,
                                    3,
                                    -3,
                                    1 << 30,
                                    -(1 << 30),
                                    INT32_MAX,
                                    INT32_MIN,
                                    INT32_MIN + 1,
                                    INT32_MAX - 1,
                                    32767,
                                    -32768,
                                    1073709056,
                                    -1073709056};
    int32_t shift, i, k;
    for (shift = -31; shift <= 31; shift++) {
        for (k = 0; k < 400; k++) {
            int32_t m = (int32_t)((1u << 30) | (next() & 0x3FFFFFFFu));
            if (k == 0) {
                m = 0;
            } else if (k == 1) {
                m = 1 << 30;
            } else if (k == 2) {
                m = INT32_MAX;
            }
            for (i = 0; i < (int32_t)(sizeof(fixed) / sizeof(fixed[0])); i++) {
                check(fixed[i], m, shift);
            }
            for (i = 0; i < 24; i++) {
                /* Every magnitude: a random word shifted right by 0..31, either sign. */
                const int32_t v = (int32_t)(next() >> (next() % 32u));
                check((next() & 1u) ? v : -v, m, shift);
            }
            if (shift < 0) {
                /* With m = 2^30 the high multiply is about x / 2: odd multiples of 2^(r - 1) (times 2) and their
                 * neighbours land on and beside the ties of the right shift by r. */
                const int32_t r = -shift;
                const int32_t j = (int32_t)(next() % 1000u);
                const int32_t base = (int32_t)((uint32_t)(2 * j + 1) << (r - 1 < 20 ? r - 1 : 20));
                for (i = -2; i <= 2; i++) {
                    check(base + i, 1 << 30, shift);
                    check(-base + i, 1 << 30, shift);
                    check(2 * (base + i), 1 << 30, shift);
                    check(-2 * (base + i), 1 << 30, shift);
                }
            }
        }
    }
    printf("requant exact: %ld mismatches\n", (long)fails);
    return fails > 100 ? 100 : fails;
}
