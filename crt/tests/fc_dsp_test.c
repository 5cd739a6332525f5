/* The DSP fully connected kernels (src/kernels/fully_connected_s8_dsp.c) against the integer dot product and the
 * requantization formulas they implement, under QEMU on the Cortex-M4, where the blocks of 8 rows run the assembly
 * routine: every depth of 1..9 quads (each entry point of its 8-quad loop) and 33 quads, output rows 1..19 (no block,
 * one or two blocks and the single rows after them), batches 1 and 2 (the second input row unaligned), per-tensor
 * constants with the activation range all of int8 or clamped (the routine requantizes and stores) and per-channel
 * ones and the _exact entry point (it hands its accumulators to C).  The weights are laid out here as the compiler
 * does (compiler/ops/common/dsp_layout.py): raw weight words, 8-row blocks, the bias adjusted.  The chain of layers
 * (fully_connected_s8_dsp_chain.c) against aot_fully_connected_s8_dsp for every per-tensor case of whole blocks: a
 * table of two steps, the chain's input to the workspace and the workspace to the chain's output, two batches from
 * an unaligned input.  Exit code 0 iff no output differs. */
#include <stdint.h>
#include <stdio.h>

#include "aot/kernels/fully_connected.h"
#include "aot/requant.h"

#define MAX_DEPTH 132
#define MAX_UNITS 19
#define MAX_BATCH 2

static int8_t input[MAX_BATCH * MAX_DEPTH + 1];
static int8_t weights[MAX_UNITS][MAX_DEPTH];
static int32_t packed[MAX_UNITS * MAX_DEPTH / 4];
static int32_t bias[MAX_UNITS], kbias[MAX_UNITS], mult[MAX_UNITS], add[MAX_UNITS], zp_shift[MAX_UNITS];
static int8_t got[MAX_BATCH * MAX_UNITS];
static int32_t scratch[MAX_DEPTH / 2];
static uint32_t seed = 77u;
static int failures, checks, interior, chained;

/* The chain's workspace: scratch, then the first step's output, then the second step's input (one byte in). */
#define CHAIN_OUT 264u
#define CHAIN_IN  304u
static uint32_t chain_ws[(CHAIN_IN + 1u + MAX_BATCH * MAX_DEPTH + 3u) / 4u];
static int8_t chain_want[MAX_BATCH * MAX_UNITS], chain_got[MAX_BATCH * MAX_UNITS];

static uint32_t next(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static int32_t range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1));
}

/* Byte j of quad q of row r as the kernel stores it: even positions + 128. */
static uint32_t raw_byte(int32_t r, int32_t q, int32_t j)
{
    const int32_t w = weights[r][4 * q + j];
    return (uint32_t)((j & 1) ? w : w + 128) & 0xFFu;
}

static int32_t raw_word(int32_t r, int32_t q)
{
    return (int32_t)(raw_byte(r, q, 0) | (raw_byte(r, q, 1) << 8) | (raw_byte(r, q, 2) << 16) |
                     (raw_byte(r, q, 3) << 24));
}

static void pack(int32_t depth, int32_t units)
{
    const int32_t quads = depth / 4, rows8 = units / 8 * 8;
    int32_t n = 0, r, q, k;
    for (r = 0; r < rows8; r += 8) {
        for (q = 0; q < quads; q++) {
            for (k = 0; k < 8; k++) {
                packed[n++] = raw_word(r + k, q);
            }
        }
    }
    for (r = rows8; r < units; r++) {
        for (q = 0; q < quads; q++) {
            packed[n++] = raw_word(r, q);
        }
    }
    for (r = 0; r < units; r++) {
        int32_t adj = 0;
        for (q = 0; q < quads; q++) {
            adj += 128 * (weights[r][4 * q + 1] + weights[r][4 * q + 3]);
        }
        kbias[r] = bias[r] + adj;
    }
}

/* The short requantization (dsp_s8.h) in 64-bit arithmetic: (add + sign + round(2 acc m / 2^32)) >> rs. */
static int32_t short_requant(int32_t acc, int32_t m, int32_t a)
{
    int32_t rs = 1;
    const int64_t h = ((int64_t)acc * 2 * m + ((int64_t)1 << 31)) >> 32;
    while (!(((uint32_t)a >> (rs - 1)) & 1u)) {
        rs++;
    }
    return (int32_t)((uint32_t)a + (uint32_t)(acc >> 31) + (uint32_t)h) >> rs;
}

static void run(int32_t depth, int32_t units, int32_t batches, int32_t per_channel, int32_t act_min, int32_t act_max,
                int32_t exact)
{
    const int32_t stride = per_channel ? 1 : 0;
    /* The second batch row starts one byte after the first ends: unaligned when it is placed at offset 1. */
    const int8_t* const in = input + (batches > 1 ? 1 : 0);
    int32_t b, r, k;
    pack(depth, units);
    if (exact) {
        aot_fully_connected_s8_dsp_exact(in, batches, depth, packed, kbias, got, units, mult, zp_shift, stride, act_min,
                                         act_max, scratch);
    } else {
        aot_fully_connected_s8_dsp(in, batches, depth, packed, kbias, got, units, mult, add, stride, act_min, act_max,
                                   scratch);
    }
    for (b = 0; b < batches; b++) {
        for (r = 0; r < units; r++) {
            const int32_t c = r * stride;
            int32_t acc = bias[r], v;
            for (k = 0; k < depth; k++) {
                acc += weights[r][k] * in[b * depth + k];
            }
            if (exact) {
                v = aot_multiply_by_quantized_multiplier(acc, mult[c], (int8_t)(zp_shift[c] & 0xFF)) +
                    (zp_shift[c] - (int8_t)(zp_shift[c] & 0xFF)) / 256;
            } else {
                v = short_requant(acc, mult[c], add[c]);
            }
            v = v < act_min ? act_min : (v > act_max ? act_max : v);
            interior += v > act_min && v < act_max;
            if (got[b * units + r] != v && failures++ < 10) {
                printf(
                    "depth %ld units %ld batch %ld row %ld (per_channel %ld, act %ld..%ld, exact %ld): %d, want %ld\n",
                    (long)depth, (long)units, (long)b, (long)r, (long)per_channel, (long)act_min, (long)act_max,
                    (long)exact, got[b * units + r], (long)v);
            }
            checks++;
        }
    }
}

/* The packed layer (run) as both steps of a chain, two batches, against the kernel called directly. */
static void run_chain(int32_t depth, int32_t units, int32_t act_min, int32_t act_max)
{
    uint8_t* const ws = (uint8_t*)chain_ws;
    const int8_t* const in = input + 1;
    struct aot_fc_dsp_step steps[2];
    int32_t i;
    aot_fully_connected_s8_dsp(in, MAX_BATCH, depth, packed, kbias, chain_want, units, mult, add, 0, act_min, act_max,
                               scratch);
    for (i = 0; i < MAX_BATCH * depth; i++) {
        ws[CHAIN_IN + 1u + (uint32_t)i] = (uint8_t)in[i];
    }
    for (i = 0; i < 2; i++) {
        steps[i].filter = packed;
        steps[i].bias = kbias;
        steps[i].out_multiplier = mult;
        steps[i].out_add = add;
        steps[i].input = i == 0 ? AOT_FC_DSP_EXT : CHAIN_IN + 1u;
        steps[i].output = i == 0 ? CHAIN_OUT : AOT_FC_DSP_EXT;
        steps[i].scratch = 0u;
        steps[i].accum_depth = (uint16_t)depth;
        steps[i].out_depth = (uint16_t)units;
        steps[i].batches = MAX_BATCH;
        steps[i].act_min = (int8_t)act_min;
        steps[i].act_max = (int8_t)act_max;
    }
    aot_fully_connected_s8_dsp_chain(steps, 2, ws, in, chain_got);
    for (i = 0; i < MAX_BATCH * units; i++) {
        if ((chain_got[i] != chain_want[i] || (int8_t)ws[CHAIN_OUT + (uint32_t)i] != chain_want[i]) &&
            failures++ < 10) {
            printf("chain: depth %ld units %ld act %ld..%ld output %ld: %d and %d, want %d\n", (long)depth, (long)units,
                   (long)act_min, (long)act_max, (long)i, (int8_t)ws[CHAIN_OUT + (uint32_t)i], chain_got[i],
                   chain_want[i]);
        }
        chained++;
    }
}

int main(void)
{
    static const int32_t depths[] = {4, 8, 12, 16, 20, 24, 28, 32, 36, 132};
    static const int32_t units[] = {1, 7, 8, 9, 16, 19};
    uint32_t d, u;
    int32_t i, r, k, variant;
    for (i = 0; i < (int32_t)sizeof(input); i++) {
        input[i] = (int8_t)range(-128, 127);
    }
    for (r = 0; r < MAX_UNITS; r++) {
        for (k = 0; k < MAX_DEPTH; k++) {
            weights[r][k] = (int8_t)range(-128, 127);
        }
    }
    for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
            for (variant = 0; variant < 4; variant++) {
                const int32_t per_channel = variant == 2, exact = variant == 3;
                const int32_t clamp = variant == 1 || (variant >= 2 && (u & 1u));
                for (r = 0; r < MAX_UNITS; r++) {
                    /* Right shifts that put the outputs across the int8 range for these depths. */
                    const int32_t rs = range(8, 13), zp = range(-20, 20);
                    bias[r] = range(-30000, 30000);
                    mult[r] = (int32_t)(0x40000000u + (next() & 0x3FFFFFFFu));
                    add[r] = (int32_t)((1u << (rs - 1)) * (uint32_t)(2 * zp + 1));
                    zp_shift[r] = zp * 256 + (1 - rs);
                }
                run(depths[d], units[u], 1 + (int32_t)(u & 1u), per_channel, clamp ? -100 : -128, clamp ? 90 : 127,
                    exact);
                if (!per_channel && !exact && units[u] % 8 == 0) {
                    run_chain(depths[d], units[u], clamp ? -100 : -128, clamp ? 90 : 127);
                }
            }
        }
    }
    /* Most outputs must be inside the activation range, or the requantization would be barely checked, and some
     * outside it, or the saturation and the clamp would not be. */
    printf("fc_dsp_test: %d of %d outputs differ (%d inside the activation range; %d chained)\n", failures,
           checks + chained, interior, chained);
    return failures != 0 || 2 * interior < checks || interior == checks || chained == 0;
}
