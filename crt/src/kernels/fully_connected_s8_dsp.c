/* int8 fully connected layer for cores with the DSP extension (dual 16-bit MACs), with a portable fallback.
 *
 * The compiler selects this kernel for Cortex-M4/M7/M33 when accum_depth is a multiple of 4, the input zero
 * point is folded into the bias and the short requantization is exact (see dsp_s8.h).  It stores the weights
 * in the "raw weight word" form of dsp_s8.h (three instructions per four MACs) and in this order, so the
 * inner loop streams them through one pointer:
 *   - output rows in blocks of 4; per block and per 4 input values: row0 (one word), row1, row2, row3;
 *   - the last out_depth % 4 rows follow, each row's words in order.
 * The input row is expanded once per batch into scratch (accum_depth * 2 bytes); the four rows of a block
 * share every load of it.
 */
#include "aot/kernels/fully_connected.h"
#include "dsp_s8.h"

/* Expands `depth` int8 values into (xa, xc) word pairs; returns 128 * sum(x0 + x2), the correction every
 * accumulator subtracts. */
static int32_t aot_fc_expand(const int8_t* in, int32_t depth, uint32_t* out)
{
    const int32_t quads = depth / 4;
    int32_t q, sum = 0;
    for (q = 0; q < quads; q++) {
        const uint32_t v = aot_read32(in + 4 * q);
        const uint32_t xa = aot_expand_xa(v);
        out[2 * q] = xa;
        out[2 * q + 1] = aot_expand_xc(v);
        sum = aot_smlad(xa, 0x00010001u, sum);
    }
    return sum * 128;
}

void aot_fully_connected_s8_dsp(const int8_t* input, int32_t batches, int32_t accum_depth,
                                const int32_t* filter, const int32_t* bias, int8_t* output,
                                int32_t out_depth, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_right_shift,
                                int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                                int32_t* scratch)
{
    const int32_t quads = accum_depth / 4;
    const int32_t blocks = out_depth / 4;
    uint32_t* const xbuf = (uint32_t*)scratch;
    const uint32_t* const xend = xbuf + 2 * quads;
    int32_t b, blk, r;

    for (b = 0; b < batches; b++) {
        const uint32_t* wp = (const uint32_t*)filter;
        int8_t* out_b = output + b * out_depth;
        const int32_t corr = aot_fc_expand(input + b * accum_depth, accum_depth, xbuf);

        for (blk = 0; blk < blocks; blk++) {
            const int32_t row = 4 * blk;
            const uint32_t* xp = xbuf;
            int32_t acc[4];
            int32_t a0 = bias[row] - corr, a1 = bias[row + 1] - corr;
            int32_t a2 = bias[row + 2] - corr, a3 = bias[row + 3] - corr;
            if (quads & 1) {
                /* Odd quad first so the main loop can take two per iteration. */
                const uint32_t xa = xp[0], xc = xp[1];
                a0 = aot_smlad(wp[0], xa, a0);
                a0 = aot_smlad(aot_sxtb16_ror8(wp[0]), xc, a0);
                a1 = aot_smlad(wp[1], xa, a1);
                a1 = aot_smlad(aot_sxtb16_ror8(wp[1]), xc, a1);
                a2 = aot_smlad(wp[2], xa, a2);
                a2 = aot_smlad(aot_sxtb16_ror8(wp[2]), xc, a2);
                a3 = aot_smlad(wp[3], xa, a3);
                a3 = aot_smlad(aot_sxtb16_ror8(wp[3]), xc, a3);
                wp += 4;
                xp += 2;
            }
            while (xp != xend) {
                uint32_t xa, xc, w0, w1;
                aot_load2(&xp, &xa, &xc);
                aot_load2(&wp, &w0, &w1);
                a0 = aot_smlad(w0, xa, a0);
                a0 = aot_smlad(aot_sxtb16_ror8(w0), xc, a0);
                a1 = aot_smlad(w1, xa, a1);
                a1 = aot_smlad(aot_sxtb16_ror8(w1), xc, a1);
                aot_load2(&wp, &w0, &w1);
                a2 = aot_smlad(w0, xa, a2);
                a2 = aot_smlad(aot_sxtb16_ror8(w0), xc, a2);
                a3 = aot_smlad(w1, xa, a3);
                a3 = aot_smlad(aot_sxtb16_ror8(w1), xc, a3);
                aot_load2(&xp, &xa, &xc);
                aot_load2(&wp, &w0, &w1);
                a0 = aot_smlad(w0, xa, a0);
                a0 = aot_smlad(aot_sxtb16_ror8(w0), xc, a0);
                a1 = aot_smlad(w1, xa, a1);
                a1 = aot_smlad(aot_sxtb16_ror8(w1), xc, a1);
                aot_load2(&wp, &w0, &w1);
                a2 = aot_smlad(w0, xa, a2);
                a2 = aot_smlad(aot_sxtb16_ror8(w0), xc, a2);
                a3 = aot_smlad(w1, xa, a3);
                a3 = aot_smlad(aot_sxtb16_ror8(w1), xc, a3);
            }
            acc[0] = a0;
            acc[1] = a1;
            acc[2] = a2;
            acc[3] = a3;
            for (r = 0; r < 4; r++) {
                const int32_t q = (row + r) * multiplier_stride;
                out_b[row + r] = aot_dsp_output(acc[r], out_multiplier[q], out_right_shift[q],
                                                output_offset, act_min, act_max);
            }
        }

        for (r = 4 * blocks; r < out_depth; r++) {
            const uint32_t* xp = xbuf;
            const int32_t q = r * multiplier_stride;
            int32_t a = bias[r] - corr;
            while (xp != xend) {
                const uint32_t w = *wp++;
                a = aot_smlad(w, xp[0], a);
                a = aot_smlad(aot_sxtb16_ror8(w), xp[1], a);
                xp += 2;
            }
            out_b[r] = aot_dsp_output(a, out_multiplier[q], out_right_shift[q], output_offset,
                                      act_min, act_max);
        }
    }
}
