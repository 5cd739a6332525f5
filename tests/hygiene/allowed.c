/* Hygiene fixture: the user kernel the user_* fixtures declare. */
#include <stdint.h>

int32_t allowed_fn(int32_t x);
int32_t allowed_init(int32_t x);
int32_t secret_fn(int32_t x);

int32_t allowed_fn(int32_t x)
{
    return x + 1;
}

int32_t allowed_init(int32_t x)
{
    return x;
}

int32_t secret_fn(int32_t x)
{
    return x - 1;
}
