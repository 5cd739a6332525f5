/* int8 table lookup, words (aot/kernels/lut.h): one word load brings four inputs, their four table bytes are merged
 * into one word store, sixteen per loop pass.  The words go through memcpy, which these cores compile to single
 * (unaligned) LDR / STR; each byte lane maps to the same lane, so the result does not depend on the byte order. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/lut.h"

static inline uint32_t look4(uint32_t w, const uint8_t* t)
{
    return (uint32_t)t[w & 0xFFu] | ((uint32_t)t[(w >> 8) & 0xFFu] << 8) | ((uint32_t)t[(w >> 16) & 0xFFu] << 16) |
           ((uint32_t)t[w >> 24] << 24);
}

void aot_lut_s8_word(const int8_t* input, int8_t* output, int32_t size, const int8_t* table)
{
    const uint8_t* t = (const uint8_t*)table;
    int32_t i = 0;
    for (; i + 16 <= size; i += 16) {
        uint32_t a, b, c, d;
        memcpy(&a, input + i, 4);
        memcpy(&b, input + i + 4, 4);
        memcpy(&c, input + i + 8, 4);
        memcpy(&d, input + i + 12, 4);
        a = look4(a, t);
        b = look4(b, t);
        c = look4(c, t);
        d = look4(d, t);
        memcpy(output + i, &a, 4);
        memcpy(output + i + 4, &b, 4);
        memcpy(output + i + 8, &c, 4);
        memcpy(output + i + 12, &d, 4);
    }
    for (; i + 4 <= size; i += 4) {
        uint32_t w;
        memcpy(&w, input + i, 4);
        w = look4(w, t);
        memcpy(output + i, &w, 4);
    }
    for (; i < size; i++) {
        output[i] = table[(uint8_t)input[i]];
    }
}
