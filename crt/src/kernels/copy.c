/* Byte copy for reshapes whose buffers cannot be aliased; zero fill for ZEROS_LIKE. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/copy.h"

void aot_copy(void* dst, const void* src, int32_t bytes)
{
    if (dst != src && bytes > 0) {
        memcpy(dst, src, (size_t)bytes);
    }
}

void aot_zero(void* dst, int32_t bytes)
{
    if (bytes > 0) {
        memset(dst, 0, (size_t)bytes);
    }
}
