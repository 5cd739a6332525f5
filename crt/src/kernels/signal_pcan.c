/* SignalPCAN: per-channel amplitude normalization of uint32 filter bank channels by their noise estimate.
 *
 * The gain is a piecewise quadratic of the noise estimate: entries 0..2 of the table for values 0..2, then per
 * octave e (top bit e, 2..32) three coefficients at 4e - 6 evaluated at the 10 bits below the top one, in
 * TFLite Micro's 32-bit fixed point (its int32 intermediate wraps on extreme tables; so does this one). */
#include "aot_sched.h"

#include "aot/kernels/signal.h"
#include "signal_fixed.h"

#define AOT_PCAN_SNR_BITS    12
#define AOT_PCAN_OUTPUT_BITS 6

static int16_t gain_of(uint32_t x, const int16_t* table)
{
    int32_t top = 0, frac, r;
    uint32_t t = x;
    const int16_t* c;
    uint32_t u;
    if (x <= 2u) {
        return table[x];
    }
    while (t != 0u) {
        t >>= 1;
        ++top;
    }
    c = table + 4 * top - 6;
    frac = (int32_t)((top < 11 ? x << (11 - top) : x >> (top - 11)) & 0x3FFu);
    r = aot_sig_asr((int32_t)c[2] * frac, 5);
    u = (uint32_t)r + ((uint32_t)(int32_t)c[1] << 5);
    u = u * (uint32_t)frac + (1u << 14);
    r = aot_sig_asr(aot_sig_wrap32(u), 15) + c[0];
    return aot_sig_wrap16(r);
}

static uint32_t shrink(uint32_t x)
{
    if (x < (2u << AOT_PCAN_SNR_BITS)) {
        return (x * x) >> (2 + 2 * AOT_PCAN_SNR_BITS - AOT_PCAN_OUTPUT_BITS);
    }
    return (x >> (AOT_PCAN_SNR_BITS - AOT_PCAN_OUTPUT_BITS)) - (1u << AOT_PCAN_OUTPUT_BITS);
}

void aot_signal_pcan(const uint32_t* input, const uint32_t* noise_estimate, const int16_t* gain_table, uint32_t* output,
                     int32_t size, int32_t snr_shift)
{
    int32_t i;
    for (i = 0; i < size; ++i) {
        /* A negative gain counts as its uint32 bit pattern, as in TFLite Micro; the 64-bit product is the
         * signal library's own (its 32-bit result keeps the low word of the shifted product). */
        const uint32_t gain = (uint32_t)(int32_t)gain_of(noise_estimate[i], gain_table);
        const uint32_t snr = (uint32_t)(((uint64_t)input[i] * gain) >> snr_shift);
        output[i] = shrink(snr);
    }
}
