/* Fixture: a well-behaved "model": prefixed symbols only; "double" in a string or comment is fine. */
#include <stdint.h>

int32_t good_run(void);
const char* good_name(void);
static int32_t calls;

int32_t good_run(void)
{
    return ++calls;
}
const char* good_name(void)
{
    return "no double, no int64_t here";
}
