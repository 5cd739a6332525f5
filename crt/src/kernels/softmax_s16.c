/* int16 SOFTMAX over the innermost dimension (16x8 models), TFLite's int16 scheme: each input minus the row's
 * maximum is rescaled so that [-65535, 0] spans exp's table range [-10, 0], exp comes from a table, the sum of the
 * row's exps is normalised to [1, 2) and inverted with a 1 / (1 + x) table, and each exp times the reciprocal is
 * shifted back to Q0.15.  Every intermediate fits 32 bits: exps are at most 2^15, a row has at most 2^16 of them
 * (checked by the compiler), and the normalised sum and the products stay below 2^31. */
#include "aot_sched.h"

#include "aot/kernels/softmax.h"
#include "aot/requant.h"
#include "lut_s16.h"

static int32_t aot_softmax_s16_clz(uint32_t x)
{
    int32_t n = 0;
    if (x == 0u) {
        return 32;
    }
    while ((x & 0x80000000u) == 0u) {
        x <<= 1;
        n++;
    }
    return n;
}

static int32_t aot_softmax_s16_clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

void aot_softmax_s16(const int16_t* input, int32_t outer, int32_t depth, int32_t input_multiplier, int32_t input_shift,
                     const int16_t* exp_lut, const int16_t* recip_lut, int16_t* output)
{
    int32_t i, c;
    for (i = 0; i < outer; i++) {
        const int16_t* in = input + i * depth;
        int16_t* out = output + i * depth;
        int32_t max_in_row = -32768, sum = 0, headroom, shifted_sum, reciprocal, right_shift;
        for (c = 0; c < depth; c++) {
            max_in_row = in[c] > max_in_row ? in[c] : max_in_row;
        }
        /* The exps are kept in the output row until the reciprocal is known (in place over the input is fine:
         * element c is read just before exp c is stored). */
        for (c = 0; c < depth; c++) {
            const int32_t scaled =
                aot_multiply_by_quantized_multiplier((int32_t)in[c] - max_in_row, input_multiplier, input_shift);
            const int32_t e = aot_lut_s16(aot_softmax_s16_clamp(scaled + 32767, -32768, 32767), exp_lut);
            out[c] = (int16_t)e;
            sum += e;
        }
        headroom = aot_softmax_s16_clz((uint32_t)sum);
        shifted_sum = (int32_t)((((uint32_t)sum << (headroom - 1)) + (1u << 13)) >> 14);
        reciprocal =
            aot_lut_s16(aot_softmax_s16_clamp(shifted_sum - ((1 << 15) + (1 << 16)), -32768, 32767), recip_lut);
        right_shift = 31 - headroom;
        for (c = 0; c < depth; c++) {
            const int32_t r = ((int32_t)out[c] * reciprocal + (1 << (right_shift - 1))) >> right_shift;
            out[c] = (int16_t)aot_softmax_s16_clamp(r, 0, 32767);
        }
    }
}
