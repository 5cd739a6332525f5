/* Fixture: a "model" whose code uses a 64-bit type outside the CRT's requantization helper. */
#include <stdint.h>

int32_t good_scale(int32_t x);

/* A comment that says int64_t and double must not count. */
int32_t good_scale(int32_t x)
{
    int64_t wide = (int64_t)x * 3;
    return (int32_t)(wide >> 1);
}
