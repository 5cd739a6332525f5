/* Byte copy for reshapes whose buffers cannot be aliased. */
#include <string.h>

#include "aot/kernels/copy.h"

void aot_copy(void* dst, const void* src, int32_t bytes)
{
    if (dst != src && bytes > 0) {
        memcpy(dst, src, (size_t)bytes);
    }
}
