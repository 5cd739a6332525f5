/* The int8 fully connected DSP kernel of fully_connected_s8_dsp.c, included there once per requantization:
 * AOT_FC_DSP_NAME is the entry point, AOT_FC_DSP_OUT the function that requantizes one row's accumulator
 * (aot_fc_out: the short form; aot_fc_out_exact: TFLite's in full).  One text for both keeps the ordinary entry
 * point's code what it was. */
void AOT_FC_DSP_NAME(const int8_t* input, int32_t batches, int32_t accum_depth, const int32_t* filter,
                     const int32_t* bias, int8_t* output, int32_t out_depth, const int32_t* out_multiplier,
                     const int32_t* out_add, int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                     int32_t* scratch)
{
    const int32_t quads = accum_depth / 4;
    const int32_t blocks = out_depth / 4;
    uint32_t* const xbuf = (uint32_t*)scratch;
    const uint32_t pairs = (uint32_t)quads >> 1;
    const uint32_t passes = aot_fc_passes(pairs);
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
            if (pairs != 0u) {
                aot_fc_quads4(&wp, xp, passes, a);
            }
            out_b[row] = AOT_FC_DSP_OUT(a[0], row, out_multiplier, out_add, multiplier_stride, act_min, act_max);
            out_b[row + 1] =
                AOT_FC_DSP_OUT(a[1], row + 1, out_multiplier, out_add, multiplier_stride, act_min, act_max);
            out_b[row + 2] =
                AOT_FC_DSP_OUT(a[2], row + 2, out_multiplier, out_add, multiplier_stride, act_min, act_max);
            out_b[row + 3] =
                AOT_FC_DSP_OUT(a[3], row + 3, out_multiplier, out_add, multiplier_stride, act_min, act_max);
        }

        /* The last out_depth % 4 rows, each row's words in order. */
        for (r = 4 * blocks; r < out_depth; r++) {
            const uint32_t* xp = xbuf;
            int32_t a = bias[r] - corr;
            int32_t k;
            k = quads;
            if (k > 0) {
                do {
                    const uint32_t w = *wp++;
                    a = aot_smlad(aot_sxtb16_ror8(w), xp[1], aot_smlad(w, xp[0], a));
                    xp += 2;
                    k--;
                } while (k != 0);
            }
            out_b[r] = AOT_FC_DSP_OUT(a, r, out_multiplier, out_add, multiplier_stride, act_min, act_max);
        }
    }
}
