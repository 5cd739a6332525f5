/* The int32 Pow kernels (crt/src/kernels/pow_int.c): aot_pow_s32 computes integer powers exactly in integers; its
 * definition is onnxruntime's, pow() in double then the x86-64 conversion (INT32_MIN when out of range, NaN or
 * infinite). Every base in -70..70, the int32 extremes and the bases around the overflow of squares and cubes,
 * against every exponent in -6..40 and the int32 extremes, are checked against that definition computed here,
 * and aot_pow_s32_f32 against the same with the exponent as a float; then the one-element exponent shortcut
 * (2 and 3 multiply, wrapping). Built for the host and the Cortex-M4 (newlib's pow) and run under QEMU.
 * Exit code = mismatches (capped). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "aot/kernels/pow_int.h"

static int32_t fails;

static int32_t reference(double r)
{
    if (!(r > -2147483649.0 && r < 2147483648.0)) {
        return INT32_MIN;
    }
    return (int32_t)r;
}

static void expect(const char* what, int32_t x, int32_t y, int32_t got, int32_t want)
{
    if (got != want && fails++ < 10) {
        printf("%s: %ld ** %ld: got %ld want %ld\n", what, (long)x, (long)y, (long)got, (long)want);
    }
}

int main(void)
{
    static const int32_t extra[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 1290,   1291, -1291,
                                    46340,     46341,         -46341,    65536,         -65536, 215,  -1625};
    static const int32_t exps[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1};
    static const int32_t dims[4] = {1, 1, 1, 1};
    static const int32_t zero[4] = {0, 0, 0, 0};
    int32_t bases[141 + sizeof(extra) / sizeof(extra[0])];
    int32_t nb = 0, i, y, k, got;
    float yf;

    for (i = -70; i <= 70; i++) {
        bases[nb++] = i;
    }
    for (i = 0; i < (int32_t)(sizeof(extra) / sizeof(extra[0])); i++) {
        bases[nb++] = extra[i];
    }
    for (i = 0; i < nb; i++) {
        const int32_t x = bases[i];
        for (k = -6; k <= 40 + 4; k++) {
            y = k <= 40 ? k : exps[k - 41];
            aot_pow_s32(&x, &y, &got, dims, zero, zero, 0);
            expect("s32", x, y, got, reference(pow((double)x, (double)y)));
            yf = (float)y;
            aot_pow_s32_f32(&x, &yf, &got, dims, zero, zero, 0);
            expect("s32_f32", x, y, got, reference(pow((double)x, (double)yf)));
        }
        /* One-element exponent of 2 or 3: multiplied, wrapping (computed here in uint32). */
        y = 2;
        aot_pow_s32(&x, &y, &got, dims, zero, zero, 1);
        expect("square", x, y, got, (int32_t)((uint32_t)x * (uint32_t)x));
        y = 3;
        yf = 3.0f;
        aot_pow_s32_f32(&x, &yf, &got, dims, zero, zero, 1);
        expect("cube", x, y, got, (int32_t)((uint32_t)x * (uint32_t)x * (uint32_t)x));
    }
    printf("pow_int_test: %ld mismatches\n", (long)fails);
    return fails > 100 ? 100 : (int)fails;
}
