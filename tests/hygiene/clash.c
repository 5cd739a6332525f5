/* Fixture: a "model" with prefix `good` that leaks an unprefixed global (would clash in a multi-model image). */
#include <stdint.h>

int32_t good_run(void);
int32_t run_count;

int32_t good_run(void)
{
    return ++run_count;
}
