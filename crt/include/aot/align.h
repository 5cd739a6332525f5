/* Alignment test of the pointers a generated model receives at its public boundary: the workspace and state of
 * <prefix>_run / <prefix>_reset and the blob of <prefix>_bind_weights.
 *
 * Testing an address's low bits converts a pointer to an integer (MISRA C:2012 rule 11.6 for a `void*`). That
 * conversion is made here, once, under its deviation record (docs/misra.md), so the generated code converts no
 * pointer to an integer and the deviation is not repeated in every model. */
#ifndef AOT_ALIGN_H_
#define AOT_ALIGN_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether `p` is a multiple of `align` bytes. `align` is a power of two (the generated code passes its
 * <PREFIX>_WORKSPACE_ALIGN / _STATE_ALIGN / _WEIGHTS_BLOB_ALIGN constants). NULL is aligned: the callers
 * refuse it first, with AOT_ERR_NULL_ARG. */
bool aot_is_aligned(const void* p, uint32_t align);

#ifdef __cplusplus
}
#endif

#endif /* AOT_ALIGN_H_ */
