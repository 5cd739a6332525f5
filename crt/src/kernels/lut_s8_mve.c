/* int8 table lookup on Helium (aot/kernels/lut.h): a byte load of 16 inputs gives the offsets of a gather load
 * (VLDRB.U8 Qd, [table, Qm]) of their 16 table bytes; 32 per pass, the last size % 16 under a VCTP predicate.
 * Other cores run the byte kernel. */
#include "aot_sched.h"

#include "aot/kernels/lut.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

void aot_lut_s8_mve(const int8_t* input, int8_t* output, int32_t size, const int8_t* table)
{
    const uint8_t* t = (const uint8_t*)table;
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    int32_t i = 0;
    for (; i + 32 <= size; i += 32) {
        const uint8x16_t a = vldrbq_u8(in + i);
        const uint8x16_t b = vldrbq_u8(in + i + 16);
        vstrbq_u8(out + i, vldrbq_gather_offset_u8(t, a));
        vstrbq_u8(out + i + 16, vldrbq_gather_offset_u8(t, b));
    }
    for (; i < size; i += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(size - i));
        vstrbq_p_u8(out + i, vldrbq_gather_offset_z_u8(t, vldrbq_z_u8(in + i, p), p), p);
    }
}

#else

void aot_lut_s8_mve(const int8_t* input, int8_t* output, int32_t size, const int8_t* table)
{
    aot_lut_s8(input, output, size, table);
}

#endif
