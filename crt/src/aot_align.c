/* aot_is_aligned (aot/align.h): the one pointer-to-integer conversion of the public boundary's checks. */
#include "kernels/aot_sched.h"

#include "aot/align.h"

bool aot_is_aligned(const void* p, uint32_t align)
{
    /* uintptr_t holds any object pointer's value (C99 7.18.1.4); only its low bits are read, and no integer is
     * converted back to a pointer (rule 11.6's deviation record, docs/misra.md). */
    return (((uintptr_t)p) & ((uintptr_t)align - 1u)) == 0u;
}
