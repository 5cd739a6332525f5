/* The int8 last-axis ARG_MAX / ARG_MIN kernels (src/kernels/arg_minmax_s8_last_dsp.c and _mve.c) against the
 * portable aot_arg_minmax_s8, which the model tests hold to TFLite Micro (the first index of the extreme), under
 * QEMU on the Cortex-M4 (the DSP kernel) and the Cortex-M55 (both).  Rows of every length up to 70 (word, group and
 * vector tails), around 256 and 1024 values, and across the kernels' 4096-value blocks, two rows per call (the
 * second starts unaligned when the length is odd); values drawn over the whole int8 range, from three values (ties
 * everywhere), constant rows at -128, 0 and 127, ramps, and an extreme planted once or twice (at block, group and
 * word edges, so a later block must win with a strictly better value and lose on a tie).  Exit code 0 iff none
 * differs. */
#include <stdint.h>
#include <stdio.h>

#include "aot/kernels/arg_minmax.h"

#define MAX_N 8200

static int8_t data[2 * MAX_N];
static uint32_t seed = 2024u;
static int failures, checks;

static uint32_t next(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static void check(int32_t n, int32_t is_max, const char* pattern)
{
    int32_t want[2], dsp[2], mve[2], r;
    aot_arg_minmax_s8(data, want, 2, n, 1, is_max);
    aot_arg_minmax_s8_last_dsp(data, dsp, 2, n, is_max);
    aot_arg_minmax_s8_last_mve(data, mve, 2, n, is_max);
    for (r = 0; r < 2; r++) {
        if ((dsp[r] != want[r] || mve[r] != want[r]) && failures++ < 10) {
            printf("%s n=%ld row %ld %s: dsp %ld mve %ld, want %ld\n", is_max ? "ARG_MAX" : "ARG_MIN", (long)n, (long)r,
                   pattern, (long)dsp[r], (long)mve[r], (long)want[r]);
        }
    }
    checks++;
}

/* Every pattern on rows of n values, for the maximum and the minimum. */
static void patterns(int32_t n)
{
    static const int32_t spots[] = {0, 1, 3, 4, 15, 16, 17, 255, 256, 1023, 1024, 4095, 4096, 4097, 8191, 8192};
    int32_t i, s, t, is_max;
    for (is_max = 0; is_max <= 1; is_max++) {
        const int8_t top = is_max ? (int8_t)101 : (int8_t)-101;
        for (i = 0; i < 2 * n; i++) {
            data[i] = (int8_t)(next() & 0xFFu);
        }
        check(n, is_max, "random");
        for (i = 0; i < 2 * n; i++) {
            data[i] = (int8_t)((int32_t)(next() % 3u) - 1);
        }
        check(n, is_max, "three values");
        for (t = 0; t < 3; t++) {
            for (i = 0; i < 2 * n; i++) {
                data[i] = (int8_t)(t == 0 ? -128 : t == 1 ? 0 : 127);
            }
            check(n, is_max, "constant");
        }
        for (i = 0; i < 2 * n; i++) {
            data[i] = (int8_t)(i % n % 256 - 128);
        }
        check(n, is_max, "rising ramp");
        for (i = 0; i < 2 * n; i++) {
            data[i] = (int8_t)(127 - i % n % 256);
        }
        check(n, is_max, "falling ramp");
        /* One planted extreme, then a second one later (the first must win), over values that never reach it. */
        for (s = 0; s < (int32_t)(sizeof(spots) / sizeof(spots[0])) && spots[s] < n; s++) {
            for (i = 0; i < 2 * n; i++) {
                data[i] = (int8_t)(is_max ? (int32_t)(next() % 229u) - 128 : (int32_t)(next() % 228u) - 100);
            }
            data[spots[s]] = top;
            data[n + n - 1 - spots[s]] = top;
            check(n, is_max, "planted once");
            for (t = s + 1; t <= s + 4 && t < (int32_t)(sizeof(spots) / sizeof(spots[0])) && spots[t] < n; t += 3) {
                data[spots[t]] = top;
                data[n + spots[t]] = top;
                check(n, is_max, "planted twice");
                data[spots[t]] = 0;
                data[n + spots[t]] = 0;
            }
        }
    }
}

int main(void)
{
    static const int32_t lengths[] = {255, 256, 257, 262, 1000, 1023, 1024, 1025, 4095, 4096, 4097, 4113, 8193, MAX_N};
    int32_t n, i;
    for (n = 1; n <= 70; n++) {
        patterns(n);
    }
    for (i = 0; i < (int32_t)(sizeof(lengths) / sizeof(lengths[0])); i++) {
        patterns(lengths[i]);
    }
    printf("arg_minmax: %d checks, %d mismatches\n", checks, failures);
    return failures != 0;
}
