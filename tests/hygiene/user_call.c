/* Hygiene fixture: a "model" that calls its declared user kernel and a function nobody declared. */
#include <stdint.h>

int32_t allowed_fn(int32_t x);
int32_t secret_fn(int32_t x);
int32_t good_run(int32_t x);

int32_t good_run(int32_t x)
{
    return allowed_fn(x) + secret_fn(x);
}
