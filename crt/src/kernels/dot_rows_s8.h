/* Four weight rows times one int8 vector, for the recurrent kernels (LSTM gates, SVDF features): rows apart
 * (aot_dot4_rows_s8) or interleaved by the compiler (aot_dot4_group_s8).
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

/* acc[j] += sum_k row_j[k] * v[k], j < 4, for the group of four rows at w stored by the compiler's
 * interleave_row_groups (compiler/ops/_dsp_layout.py): per quad of the n inputs the four rows' words, then the four
 * rows' last n % 4 bytes row by row. Returns the next group. One pointer walks the weights in order, so the loop
 * keeps its four sums, the vector word's two expansions and its pointers in registers; on DSP cores each weight
 * word is two SXTB16 and two SMLAD (four MACs), elsewhere plain products of the same bytes. */
static inline const int8_t* aot_dot4_group_s8(const int8_t* v, const int8_t* w, int32_t n, int32_t* acc)
{
    const int8_t* const vend = v + (n & ~3);
    const int32_t tail = n & 3;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t t;
    while (v != vend) {
#if defined(__ARM_FEATURE_DSP)
        const uint32_t x = aot_read32(v);
        const uint32_t xe = aot_sxtb16(x), xo = aot_sxtb16_ror8(x);
        uint32_t q = aot_read32(w);
        a0 = aot_smlad(xe, aot_sxtb16(q), a0);
        a0 = aot_smlad(xo, aot_sxtb16_ror8(q), a0);
        q = aot_read32(w + 4);
        a1 = aot_smlad(xe, aot_sxtb16(q), a1);
        a1 = aot_smlad(xo, aot_sxtb16_ror8(q), a1);
        q = aot_read32(w + 8);
        a2 = aot_smlad(xe, aot_sxtb16(q), a2);
        a2 = aot_smlad(xo, aot_sxtb16_ror8(q), a2);
        q = aot_read32(w + 12);
        a3 = aot_smlad(xe, aot_sxtb16(q), a3);
        a3 = aot_smlad(xo, aot_sxtb16_ror8(q), a3);
#else
        const int32_t x0 = v[0], x1 = v[1], x2 = v[2], x3 = v[3];
        a0 += w[0] * x0 + w[1] * x1 + w[2] * x2 + w[3] * x3;
        a1 += w[4] * x0 + w[5] * x1 + w[6] * x2 + w[7] * x3;
        a2 += w[8] * x0 + w[9] * x1 + w[10] * x2 + w[11] * x3;
        a3 += w[12] * x0 + w[13] * x1 + w[14] * x2 + w[15] * x3;
#endif
        v += 4;
        w += 16;
    }
    for (t = 0; t < tail; t++) {
        const int32_t x = v[t];
        a0 += w[t] * x;
        a1 += w[tail + t] * x;
        a2 += w[2 * tail + t] * x;
        a3 += w[3 * tail + t] * x;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    return w + 4 * tail;
}

/* The quads of v (n & ~3 values) sign-extended for aot_dot4_group_x: per quad the words sxtb16(x) and
 * sxtb16_ror8(x) (DSP cores only; elsewhere nothing is written and the group product reads v). */
static inline void aot_expand_quads_s8(const int8_t* v, int32_t n, uint32_t* xbuf)
{
#if defined(__ARM_FEATURE_DSP)
    const int8_t* const vend = v + (n & ~3);
    while (v != vend) {
        const uint32_t x = aot_read32(v);
        xbuf[0] = aot_sxtb16(x);
        xbuf[1] = aot_sxtb16_ror8(x);
        xbuf += 2;
        v += 4;
    }
#else
    (void)v;
    (void)n;
    (void)xbuf;
#endif
}

/* aot_dot4_group_s8 with v's quads already expanded into xbuf (aot_expand_quads_s8) on DSP cores: the inner loop
 * is then one load of the two words, the four weight words with their two SXTB16 each and eight SMLAD. */
static inline const int8_t* aot_dot4_group_x(const uint32_t* xbuf, const int8_t* v, const int8_t* w, int32_t n,
                                             int32_t* acc)
{
#if defined(__ARM_FEATURE_DSP)
    const uint32_t* const xend = xbuf + 2 * (n >> 2);
    const int32_t tail = n & 3;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t t;
    while (xbuf != xend) {
        const uint32_t xe = xbuf[0], xo = xbuf[1];
        uint32_t q = aot_read32(w);
        a0 = aot_smlad(xe, aot_sxtb16(q), a0);
        a0 = aot_smlad(xo, aot_sxtb16_ror8(q), a0);
        q = aot_read32(w + 4);
        a1 = aot_smlad(xe, aot_sxtb16(q), a1);
        a1 = aot_smlad(xo, aot_sxtb16_ror8(q), a1);
        q = aot_read32(w + 8);
        a2 = aot_smlad(xe, aot_sxtb16(q), a2);
        a2 = aot_smlad(xo, aot_sxtb16_ror8(q), a2);
        q = aot_read32(w + 12);
        a3 = aot_smlad(xe, aot_sxtb16(q), a3);
        a3 = aot_smlad(xo, aot_sxtb16_ror8(q), a3);
        xbuf += 2;
        w += 16;
    }
    v += n & ~3;
    for (t = 0; t < tail; t++) {
        const int32_t x = v[t];
        a0 += w[t] * x;
        a1 += w[tail + t] * x;
        a2 += w[2 * tail + t] * x;
        a3 += w[3 * tail + t] * x;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    return w + 4 * tail;
#else
    (void)xbuf;
    return aot_dot4_group_s8(v, w, n, acc);
#endif
}

#endif /* AOT_KERNELS_DOT_ROWS_S8_H_ */
