/* Four weight rows times one int8 vector, for the recurrent kernels (LSTM gates, SVDF features).
 *
 * acc[r] += sum_k rows[r * n + k] * v[k] for r < 4. On cores with the DSP extension and n a multiple of 4 each
 * word of the vector is sign-extended once into two 16-bit lane pairs and multiplied with the four rows' words by
 * SMLAD (two MACs per instruction); elsewhere the portable aot_dot4_s8 body. Both give the exact sums: SMLAD wraps
 * modulo 2^32 like any int32 sum, and the total is the reference's int32 sum.
 */
#ifndef AOT_KERNELS_DOT_ROWS_S8_H_
#define AOT_KERNELS_DOT_ROWS_S8_H_

#include <stdint.h>

#include "aot/kernels/dot_s8_inline.h"
#include "dsp_s8.h"

static inline void aot_dot4_rows_s8(const int8_t* v, const int8_t* rows, int32_t n, int32_t* acc)
{
#if defined(__ARM_FEATURE_DSP)
    if ((n & 3) == 0) {
        const int8_t* r1 = rows + n;
        const int8_t* r2 = r1 + n;
        const int8_t* r3 = r2 + n;
        int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
        int32_t k;
        for (k = 0; k < n; k += 4) {
            const uint32_t x = aot_read32(v + k);
            const uint32_t xe = aot_sxtb16(x), xo = aot_sxtb16_ror8(x);
            uint32_t w = aot_read32(rows + k);
            a0 = aot_smlad(xe, aot_sxtb16(w), a0);
            a0 = aot_smlad(xo, aot_sxtb16_ror8(w), a0);
            w = aot_read32(r1 + k);
            a1 = aot_smlad(xe, aot_sxtb16(w), a1);
            a1 = aot_smlad(xo, aot_sxtb16_ror8(w), a1);
            w = aot_read32(r2 + k);
            a2 = aot_smlad(xe, aot_sxtb16(w), a2);
            a2 = aot_smlad(xo, aot_sxtb16_ror8(w), a2);
            w = aot_read32(r3 + k);
            a3 = aot_smlad(xe, aot_sxtb16(w), a3);
            a3 = aot_smlad(xo, aot_sxtb16_ror8(w), a3);
        }
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
        return;
    }
#endif
    aot_dot4_s8(v, rows, n, n, 0, acc);
}

#endif /* AOT_KERNELS_DOT_ROWS_S8_H_ */
