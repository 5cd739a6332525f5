/* The int8 fully connected DSP kernel of fully_connected_s8_dsp.c, included there once per requantization:
 * AOT_FC_DSP_NAME is the entry point, AOT_FC_DSP_OUT the function that requantizes one row's accumulator
 * (aot_fc_out: the short form; aot_fc_out_exact: TFLite's in full), AOT_FC_DSP_SHORT 1 for the short form (whose
 * per-tensor layers the assembly blocks requantize themselves).  One text for both keeps the entry points alike. */
void AOT_FC_DSP_NAME(const int8_t* input, int32_t batches, int32_t accum_depth, const int32_t* filter,
                     const int32_t* bias, int8_t* output, int32_t out_depth, const int32_t* out_multiplier,
                     const int32_t* out_add, int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                     int32_t* scratch)
{
    const int32_t quads = accum_depth / 4;
    const int32_t blocks8 = out_depth / 8;
    const int32_t rows8 = 8 * blocks8;
    uint32_t* const xbuf = (uint32_t*)scratch;
    int32_t b, blk, r;

    for (b = 0; b < batches; b++) {
        const uint32_t* wp = (const uint32_t*)filter;
        int8_t* out_b = output + b * out_depth;
        const int32_t corr = aot_fc_expand(input + b * accum_depth, accum_depth, xbuf);

        if (blocks8 > 0) {
#if AOT_FC8_ASM
            struct aot_fc8_job job;
            job.xbuf = xbuf;
            job.xend = xbuf + 2 * quads;
            job.bias = bias;
            job.corr2 = (int32_t)(2u * (uint32_t)corr);
            job.corr = corr;
            job.w = wp;
            if (AOT_FC_DSP_SHORT && multiplier_stride == 0) {
                const int32_t full = act_min <= -128 && act_max >= 127;
                job.out = out_b;
                job.blocks = blocks8;
                job.mult = out_multiplier[0];
                job.add = out_add[0];
                job.rs = aot_dsp_shift(out_add[0]);
                job.min4 = 0x01010101u * ((uint32_t)act_min & 0xFFu);
                job.max4 = 0x01010101u * ((uint32_t)act_max & 0xFFu);
                aot_fc8_blocks(&job, (uint32_t)quads, full ? AOT_FC8_FULL : AOT_FC8_CLAMP);
            } else {
                int32_t a[8];
                job.out = a;
                job.blocks = 1;
                for (blk = 0; blk < blocks8; blk++) {
                    const int32_t row = 8 * blk;
                    int32_t k;
                    job.bias = bias + row;
                    job.w = wp + blk * 8 * quads;
                    job.out = a;
                    aot_fc8_blocks(&job, (uint32_t)quads, AOT_FC8_RAW);
                    for (k = 0; k < 8; k++) {
                        out_b[row + k] =
                            AOT_FC_DSP_OUT(a[k], row + k, out_multiplier, out_add, multiplier_stride, act_min, act_max);
                    }
                }
            }
            wp += blocks8 * 8 * quads;
#else
            for (blk = 0; blk < blocks8; blk++) {
                const int32_t row = 8 * blk;
                int32_t a[8], k;
                for (k = 0; k < 8; k++) {
                    a[k] = bias[row + k] - corr;
                }
                aot_fc_block8(&wp, xbuf, quads, a);
                for (k = 0; k < 8; k++) {
                    out_b[row + k] =
                        AOT_FC_DSP_OUT(a[k], row + k, out_multiplier, out_add, multiplier_stride, act_min, act_max);
                }
            }
#endif
        }

        /* The last out_depth % 8 rows, each row's words in order. */
        for (r = rows8; r < out_depth; r++) {
            const uint32_t* xp = xbuf;
            int32_t a = bias[r] - corr;
            int32_t k;
            k = quads;
            do {
                const uint32_t w = *wp++;
                a = aot_smlad(aot_sxtb16_ror8(w), xp[1], aot_smlad(w, xp[0], a));
                xp += 2;
                k--;
            } while (k != 0);
            out_b[r] = AOT_FC_DSP_OUT(a, r, out_multiplier, out_add, multiplier_stride, act_min, act_max);
        }
    }
}
