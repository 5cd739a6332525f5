/* Four weight rows times one int8 vector, for the recurrent kernels (LSTM gates, SVDF features), the rows stored
 * by the compiler in interleaved groups of four (compiler/ops/common/dsp_layout.py: interleave_row_groups), plainly
 * (aot_dot4_group_s8: SVDF) or in the raw-weight-word form (aot_dot4_group_raw, aot_dot1_raw: LSTM).
 *
 * On cores with the DSP extension the products go two per SMLAD; elsewhere they are plain products of the same
 * bytes. Both give the exact sums: SMLAD wraps modulo 2^32 like any int32 sum, and the total is the reference's
 * int32 sum.
 */
#ifndef AOT_KERNELS_DOT_ROWS_S8_H_
#define AOT_KERNELS_DOT_ROWS_S8_H_

#include <stdint.h>

#include "aot/kernels/dot_s8_inline.h"
#include "dsp_s8.h"

/* acc[j] += sum_k row_j[k] * v[k], j < 4, for the group of four rows at w stored by the compiler's
 * interleave_row_groups (compiler/ops/common/dsp_layout.py): per quad of the n inputs the four rows' words, then the
 * four rows' last n % 4 bytes row by row. Returns the next group. One pointer walks the weights in order, so the loop
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

/* The raw-weight-word form of the grouped products (the FC kernels' form, dsp_s8.h: aot_expand_xa/xc): the compiler
 * stores every quad's bytes 0 and 2 as w + 128 (unsigned) and adds 128 * (w1 + w3) over the row's quads to its
 * bias (_dsp_layout.raw_word_rows); the kernel subtracts corr = 128 * sum (x0 + x2) over the vector's quads once
 * per vector. A weight word then takes one SXTB16 and two SMLAD for its four MACs. */

/* xbuf: per quad of v the words xa and xc (DSP cores); returns corr (every core). */
static inline int32_t aot_expand_quads_raw(const int8_t* v, int32_t n, uint32_t* xbuf)
{
    const int8_t* const vend = v + (n & ~3);
    int32_t sum = 0;
    while (v != vend) {
#if defined(__ARM_FEATURE_DSP)
        const uint32_t x = aot_read32(v);
        xbuf[0] = aot_expand_xa(x);
        xbuf[1] = aot_expand_xc(x);
        xbuf += 2;
#endif
        sum += v[0] + v[2];
        v += 4;
    }
    (void)xbuf;
    return 128 * sum;
}

/* One raw quad of a row times the vector's quad x (portable form of the two SMLAD): the stored bytes u0, w1, u2, w3
 * with u = w + 128 give u0 x0 + w1 (x1 - 128) + u2 x2 + w3 (x3 - 128), as the DSP form does. */
static inline int32_t aot_raw_quad(const int8_t* w, const int8_t* x)
{
    return (int32_t)(uint8_t)w[0] * x[0] + w[1] * (x[1] - 128) + (int32_t)(uint8_t)w[2] * x[2] + w[3] * (x[3] - 128);
}

/* aot_dot4_group_s8 for raw-word groups: acc[j] (preset to bias - corr) += the four rows' products. */
static inline const int8_t* aot_dot4_group_raw(const uint32_t* xbuf, const int8_t* v, const int8_t* w, int32_t n,
                                               int32_t* acc)
{
    const int32_t tail = n & 3;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    int32_t t;
#if defined(__ARM_FEATURE_DSP)
    const uint32_t* const xend = xbuf + 2 * (n >> 2);
    while (xbuf != xend) {
        const uint32_t xa = xbuf[0], xc = xbuf[1];
        uint32_t q = aot_read32(w);
        a0 = aot_smlad(q, xa, a0);
        a0 = aot_smlad(aot_sxtb16_ror8(q), xc, a0);
        q = aot_read32(w + 4);
        a1 = aot_smlad(q, xa, a1);
        a1 = aot_smlad(aot_sxtb16_ror8(q), xc, a1);
        q = aot_read32(w + 8);
        a2 = aot_smlad(q, xa, a2);
        a2 = aot_smlad(aot_sxtb16_ror8(q), xc, a2);
        q = aot_read32(w + 12);
        a3 = aot_smlad(q, xa, a3);
        a3 = aot_smlad(aot_sxtb16_ror8(q), xc, a3);
        xbuf += 2;
        w += 16;
    }
    v += n & ~3;
#else
    const int8_t* const vend = v + (n & ~3);
    (void)xbuf;
    while (v != vend) {
        a0 += aot_raw_quad(w, v);
        a1 += aot_raw_quad(w + 4, v);
        a2 += aot_raw_quad(w + 8, v);
        a3 += aot_raw_quad(w + 12, v);
        v += 4;
        w += 16;
    }
#endif
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

/* One raw-word row (stored on its own): acc (preset to bias - corr) + its products. */
static inline int32_t aot_dot1_raw(const uint32_t* xbuf, const int8_t* v, const int8_t* w, int32_t n, int32_t acc)
{
    const int32_t quads = n >> 2;
    int32_t k;
    for (k = 0; k < quads; k++) {
#if defined(__ARM_FEATURE_DSP)
        const uint32_t q = aot_read32(w + 4 * k);
        acc = aot_smlad(aot_sxtb16_ror8(q), xbuf[2 * k + 1], aot_smlad(q, xbuf[2 * k], acc));
#else
        acc += aot_raw_quad(w + 4 * k, v + 4 * k);
#endif
    }
    (void)xbuf;
    for (k = 4 * quads; k < n; k++) {
        acc += w[k] * v[k];
    }
    return acc;
}

#endif /* AOT_KERNELS_DOT_ROWS_S8_H_ */
