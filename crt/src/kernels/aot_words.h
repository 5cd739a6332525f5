/* Word access to byte data without type punning.
 *
 * The DSP kernels read int8 weights and activations four at a time (one LDR, or two by LDRD) and keep expanded
 * pairs in scratch words. Reading an int8_t object through a uint32_t lvalue breaks C's effective-type rule: a
 * compiler that sees both sides of it (link-time optimization, a unity build) may reorder or drop such accesses.
 * Every such access goes through `aot_w32` instead:
 *  - under GCC and Clang it is uint32_t with the `may_alias` attribute: type-based alias analysis treats an access
 *    through it as it treats a character access, which may alias any object. Its size and alignment are
 *    uint32_t's, so a load is still one LDR (and two adjacent ones one LDRD): the instructions do not change;
 *  - elsewhere it is plain uint32_t, and `aot_w32_get` / `aot_w32_set` copy through memcpy, the portable way to
 *    reinterpret bytes, which an optimizing compiler turns into the same single load or store.
 * Kernels therefore dereference an `aot_w32` pointer only through these two functions.
 *
 * `aot_w32_from` / `aot_w32_from_mut` convert a byte (or scratch) address into a word pointer by way of void*:
 * the address must be 4-byte aligned, which the caller states (the compiler's memory plan aligns every buffer and
 * weight array to at least 4 bytes, and the kernels that take a word path test the address or the layout first).
 */
#ifndef AOT_KERNELS_AOT_WORDS_H_
#define AOT_KERNELS_AOT_WORDS_H_

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
typedef uint32_t __attribute__((may_alias)) aot_w32;
#else
typedef uint32_t aot_w32;
#endif

static inline uint32_t aot_w32_get(const aot_w32* p)
{
#if defined(__GNUC__)
    return *p;
#else
    uint32_t v;
    (void)memcpy(&v, p, sizeof(v));
    return v;
#endif
}

static inline void aot_w32_set(aot_w32* p, uint32_t v)
{
#if defined(__GNUC__)
    *p = v;
#else
    (void)memcpy(p, &v, sizeof(v));
#endif
}

/* A word view of a 4-byte-aligned address (see above). */
static inline const aot_w32* aot_w32_from(const void* p)
{
    return (const aot_w32*)p;
}

static inline aot_w32* aot_w32_from_mut(void* p)
{
    return (aot_w32*)p;
}

#endif /* AOT_KERNELS_AOT_WORDS_H_ */
