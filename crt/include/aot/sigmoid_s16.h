/* int16 sigmoid and tanh by interpolation in a 256-entry table of sigmoid(i/24) (tanh(x) = 2 sigmoid(2x) - 1),
 * with TFLite's int16 rounding: the gates of the integer LSTM, and any int16 LOGISTIC / TANH.
 *
 * The input is first rescaled: x * multiplier (rounded) >> shift, where multiplier 3 and shift 0 read an input in
 * Q3.12 (the scale 2^-12 of the LSTM's gate pre-activations). Outputs are Q0.15. Interpolation is on the
 * magnitude; the sign is restored by symmetry (sigmoid(-x) = 1 - sigmoid(x)) with the rounding constants that make
 * the result bit-exact with TFLite. The bodies are inline: the LSTM calls them once per gate element.
 */
#ifndef AOT_SIGMOID_S16_H_
#define AOT_SIGMOID_S16_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sigmoid(i / 24) in 0.16 fixed point, i < 256 (crt/src/aot_sigmoid_s16.c). */
extern const uint16_t aot_sigmoid_table[256];

/* x: an int16 value (int32_t so a caller whose value is already saturated needs no extension). */
static inline int32_t aot_sigmoid_rescale(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    return (x * multiplier + round) >> shift;
}

/* The table entry at mag >> bits, interpolated linearly by the low `bits` bits, scaled by 2^bits, plus `add`;
 * `saturated` + `add` past the table's end. */
static inline uint32_t aot_sigmoid_interpolate(uint32_t mag, uint32_t bits, uint32_t saturated, uint32_t add)
{
    const uint32_t step = mag >> bits;
    const uint32_t frac = mag & ((1u << bits) - 1u);
    if (step >= 255u) {
        return saturated + add;
    }
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
    {
        /* Entries a, b (step, step + 1) by one load; read as int16 lanes each is its value - 2^16 (every entry is
         * at least 2^15: sigmoid of x >= 0), so one SMLAD of the lanes with the weights (2^bits - frac, frac) into
         * 2^(16 + bits) + add is a 2^bits + frac (b - a) + add, exactly (below 2^26 + add, no overflow). */
        uint32_t pair, r;
        const uint32_t weights = (frac << 16) - frac + (1u << bits);
        memcpy(&pair, &aot_sigmoid_table[step], sizeof(pair));
        __asm__("smlad %0, %1, %2, %3" : "=r"(r) : "r"(pair), "r"(weights), "r"((1u << (16u + bits)) + add));
        return r;
    }
#else
    {
        const uint32_t a = aot_sigmoid_table[step];
        const uint32_t b = aot_sigmoid_table[step + 1u];
        return (a << bits) + frac * (b - a) + add;
    }
#endif
}

static inline int16_t aot_sigmoid_s16_elem(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t v = aot_sigmoid_rescale(x, multiplier, shift);
    /* 9 fraction bits per table step: 7 for the Q3.12 -> step conversion, 2 for the 3/4 input scale. */
    /* r = the interpolation + 2^9: (r) >> 10 for v >= 0, (2^25 + 2^9 - 1 - (r - 2^9)) >> 10 below. */
    uint32_t r = aot_sigmoid_interpolate((uint32_t)abs(v), 9, 0x7FFFu << 10, 1u << 9);
    r = v >= 0 ? r : (1u << 25) + (1u << 10) - 1u - r;
    return (int16_t)(r >> 10);
}

static inline int16_t aot_tanh_s16_elem(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t v = aot_sigmoid_rescale(x, multiplier, shift);
    /* tanh(x) = 2 sigmoid(2x) - 1: one fraction bit fewer per step. */
    /* r = the interpolation + 2^7 - 2^23 (modulo 2^32); below zero the mirror: 2^23 + 2^7 - 1 - interpolation. */
    int32_t r = (int32_t)aot_sigmoid_interpolate((uint32_t)abs(v), 8, 0xFFFFu << 8, (1u << 7) - (1u << 23));
    r = v >= 0 ? r : (1 << 8) - 1 - r;
    return (int16_t)(r >> 8);
}

#ifdef __cplusplus
}
#endif

#endif /* AOT_SIGMOID_S16_H_ */
