/* int8 fully connected layer for cores with the DSP extension (dual 16-bit MACs), with a portable fallback.
 *
 * The compiler selects this kernel for cores with the DSP extension when accum_depth is a multiple of 4, the
 * input zero point is folded into the bias (see dsp_s8.h); aot_fully_connected_s8_dsp_exact is the same loop with
 * TFLite's full requantization, for layers whose constants compiler/ops/_short_requant.py refuses.  It stores
 * the weights in the "raw weight word" form of dsp_s8.h (three instructions per four MACs) and in this order,
 * so the inner loop streams them through one pointer:
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

/* One quad of the input (xa, xc) against the next word of each of the 4 rows of a block. */
static inline void aot_fc_quad4(const uint32_t** wp, uint32_t xa, uint32_t xc, int32_t* a)
{
    uint32_t w0, w1;
    aot_load2(wp, &w0, &w1);
    a[0] = aot_smlad(aot_sxtb16_ror8(w0), xc, aot_smlad(w0, xa, a[0]));
    a[1] = aot_smlad(aot_sxtb16_ror8(w1), xc, aot_smlad(w1, xa, a[1]));
    aot_load2(wp, &w0, &w1);
    a[2] = aot_smlad(aot_sxtb16_ror8(w0), xc, aot_smlad(w0, xa, a[2]));
    a[3] = aot_smlad(aot_sxtb16_ror8(w1), xc, aot_smlad(w1, xa, a[3]));
}

/* Row `row` of the output: requantized with its (or the shared) multiplier and add constant, or with exact (a
 * constant per entry point) TFLite's full requantization from the multiplier and zp * 256 + shift. */
AOT_ALWAYS_INLINE int8_t aot_fc_out(int32_t acc, int32_t row, const int32_t* mult, const int32_t* add,
                                    int32_t stride, int32_t act_min, int32_t act_max, int exact)
{
    if (exact) {
        return (int8_t)aot_dsp_clamp(aot_dsp_requant_exact(acc, mult[row * stride], add[row * stride]), act_min,
                                     act_max);
    }
    return aot_dsp_output(acc, mult[row * stride], add[row * stride], act_min, act_max);
}

AOT_ALWAYS_INLINE void aot_fc_dsp_run(const int8_t* input, int32_t batches, int32_t accum_depth,
                                      const int32_t* filter, const int32_t* bias, int8_t* output,
                                      int32_t out_depth, const int32_t* out_multiplier, const int32_t* out_add,
                                      int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                                      int32_t* scratch, int exact)
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
            int32_t a[4];
            a[0] = bias[row] - corr;
            a[1] = bias[row + 1] - corr;
            a[2] = bias[row + 2] - corr;
            a[3] = bias[row + 3] - corr;
            if (quads & 1) {
                /* Odd quad first so the main loop can take two per iteration. */
                aot_fc_quad4(&wp, xp[0], xp[1], a);
                xp += 2;
            }
            while (xp != xend) {
                uint32_t xa, xc;
                aot_load2(&xp, &xa, &xc);
                aot_fc_quad4(&wp, xa, xc, a);
                aot_load2(&xp, &xa, &xc);
                aot_fc_quad4(&wp, xa, xc, a);
            }
            out_b[row] = aot_fc_out(a[0], row, out_multiplier, out_add, multiplier_stride, act_min, act_max, exact);
            out_b[row + 1] = aot_fc_out(a[1], row + 1, out_multiplier, out_add, multiplier_stride, act_min,
                                        act_max, exact);
            out_b[row + 2] = aot_fc_out(a[2], row + 2, out_multiplier, out_add, multiplier_stride, act_min,
                                        act_max, exact);
            out_b[row + 3] = aot_fc_out(a[3], row + 3, out_multiplier, out_add, multiplier_stride, act_min,
                                        act_max, exact);
        }

        /* The last out_depth % 4 rows, each row's words in order. */
        for (r = 4 * blocks; r < out_depth; r++) {
            const uint32_t* xp = xbuf;
            int32_t a = bias[r] - corr;
            while (xp != xend) {
                const uint32_t w = *wp++;
                a = aot_smlad(aot_sxtb16_ror8(w), xp[1], aot_smlad(w, xp[0], a));
                xp += 2;
            }
            out_b[r] = aot_fc_out(a, r, out_multiplier, out_add, multiplier_stride, act_min, act_max, exact);
        }
    }
}

void aot_fully_connected_s8_dsp(const int8_t* input, int32_t batches, int32_t accum_depth,
                                const int32_t* filter, const int32_t* bias, int8_t* output,
                                int32_t out_depth, const int32_t* out_multiplier, const int32_t* out_add,
                                int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                                int32_t* scratch)
{
    aot_fc_dsp_run(input, batches, accum_depth, filter, bias, output, out_depth, out_multiplier, out_add,
                   multiplier_stride, act_min, act_max, scratch, 0);
}

void aot_fully_connected_s8_dsp_exact(const int8_t* input, int32_t batches, int32_t accum_depth,
                                      const int32_t* filter, const int32_t* bias, int8_t* output,
                                      int32_t out_depth, const int32_t* out_multiplier, const int32_t* out_zp_shift,
                                      int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                                      int32_t* scratch)
{
    aot_fc_dsp_run(input, batches, accum_depth, filter, bias, output, out_depth, out_multiplier, out_zp_shift,
                   multiplier_stride, act_min, act_max, scratch, 1);
}
