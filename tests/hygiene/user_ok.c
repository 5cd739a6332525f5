/* Hygiene fixture: a "model" that calls only its declared user kernel (and its init hook). */
#include <stdint.h>

int32_t allowed_fn(int32_t x);
int32_t allowed_init(int32_t x);
int32_t good_run(int32_t x);

int32_t good_run(int32_t x)
{
    return allowed_fn(x) + allowed_init(x);
}
