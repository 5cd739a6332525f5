/* int8 fully connected layers in a chain, for cores with the DSP extension: aot_fully_connected_s8_dsp_chain runs
 * a table of per-tensor layers (aot/kernels/fully_connected.h) that the runner would otherwise call one by one (ten
 * calls of 13 arguments were 596 B of ad01_int8's runner).  Each layer is aot_fully_connected_s8_dsp's loop with the
 * cases a chained layer cannot have left out (the compiler chains only layers with one multiplier, the short
 * requantization and out_depth a multiple of 8): the input expanded, then every block of 8 rows in aot_fc8_blocks,
 * requantized there.  In a unit of its own, so that an image of chained layers links neither the general entry
 * point's C (its per-row requantization and rows past the blocks) nor the runner's calls.
 */
#include "aot_sched.h"

#include "fully_connected_s8_dsp_parts.h"

void aot_fully_connected_s8_dsp_chain(const struct aot_fc_dsp_step* steps, int32_t count, uint8_t* ws,
                                      const int8_t* input, int8_t* output)
{
    int32_t i;

    for (i = 0; i < count; i++) {
        const struct aot_fc_dsp_step* const s = &steps[i];
        const int8_t* const in = (s->input == AOT_FC_DSP_EXT) ? input : (const int8_t*)(const void*)(ws + s->input);
        int8_t* const out = (s->output == AOT_FC_DSP_EXT) ? output : (int8_t*)(void*)(ws + s->output);
        int32_t* const scratch = (int32_t*)(void*)(ws + s->scratch);
#if AOT_FC8_ASM
        const int32_t depth = (int32_t)s->accum_depth;
        const int32_t quads = depth / 4;
        const int32_t units = (int32_t)s->out_depth;
        const uint32_t mode = (s->act_min == -128 && s->act_max == 127) ? AOT_FC8_FULL : AOT_FC8_CLAMP;
        uint32_t* const xbuf = (uint32_t*)(void*)scratch;
        struct aot_fc8_job job;
        int32_t b;

        job.xbuf = xbuf;
        job.xend = xbuf + 2 * quads;
        job.mult = s->out_multiplier[0];
        job.add = s->out_add[0];
        job.rs = aot_dsp_shift(job.add);
        job.min4 = 0x01010101u * ((uint32_t)s->act_min & 0xFFu);
        job.max4 = 0x01010101u * ((uint32_t)s->act_max & 0xFFu);
        for (b = 0; b < (int32_t)s->batches; b++) {
            const int32_t corr = aot_fc_expand(in + b * depth, depth, xbuf);
            job.bias = s->bias;
            job.corr2 = (int32_t)(2u * (uint32_t)corr);
            job.corr = corr;
            job.w = (const uint32_t*)s->filter;
            job.out = out + b * units;
            job.blocks = units / 8;
            aot_fc8_blocks(&job, (uint32_t)quads, mode);
        }
#else
        aot_fully_connected_s8_dsp(in, (int32_t)s->batches, (int32_t)s->accum_depth, s->filter, s->bias, out,
                                   (int32_t)s->out_depth, s->out_multiplier, s->out_add, 0, (int32_t)s->act_min,
                                   (int32_t)s->act_max, scratch);
#endif
    }
}
