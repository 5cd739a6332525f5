/* Alignment test of the pointers a generated model receives at its public boundary: the workspace and state of
 * <prefix>_run / <prefix>_reset and the blob of <prefix>_bind_weights.
 *
 * Testing an address's low bits converts a pointer to an integer (MISRA C:2012 rule 11.6 for a `void*`). That
 * conversion is made here, once, under its deviation record (docs/misra.md), so the generated code converts no
 * pointer to an integer and the deviation is not repeated in every model. It is `static inline` so that the check
 * costs what the conversion written in the runner cost (one test of the low bits, no call). */
#ifndef AOT_ALIGN_H_
#define AOT_ALIGN_H_

#include <stdbool.h>
#include <stdint.h>

/* Whether `p` is a multiple of `align` bytes. `align` is a power of two (the generated code passes its
 * <PREFIX>_WORKSPACE_ALIGN / _STATE_ALIGN / _WEIGHTS_BLOB_ALIGN constants). NULL is aligned: the callers
 * refuse it first, with AOT_ERR_NULL_ARG. */
static inline bool aot_is_aligned(const void* p, uint32_t align)
{
    /* uintptr_t holds any object pointer's value (C99 7.18.1.4); only its low bits are read, and no integer is
     * converted back to a pointer (rule 11.6's deviation record, docs/misra.md). */
    return (((uintptr_t)p) & ((uintptr_t)align - 1u)) == 0u;
}

#endif /* AOT_ALIGN_H_ */
