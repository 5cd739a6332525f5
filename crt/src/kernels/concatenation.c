/* One input's share of a concatenation: `outer` strided chunk copies. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/concatenation.h"

void aot_concatenation_copy(void* output, const void* input, int32_t outer, int32_t chunk_bytes, int32_t row_bytes,
                            int32_t offset_bytes)
{
    uint8_t* dst = (uint8_t*)output + offset_bytes;
    const uint8_t* src = (const uint8_t*)input;
    int32_t i;
    for (i = 0; i < outer; i++) {
        memcpy(dst, src, (size_t)chunk_bytes);
        dst += row_bytes;
        src += chunk_bytes;
    }
}
