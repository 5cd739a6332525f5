/* SignalFilterBank: mel channels as 64-bit weighted sums of the uint32 energy spectrum.
 *
 * The sums need 64 bits (up to a few hundred products of 32-bit energies and 12-bit weights), as in TFLite Micro;
 * a negative weight counts modulo 2^64 as there.  The result is stored as two uint32 words so the tensor's type
 * in the generated code stays 32-bit. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

static uint64_t band_sum(const uint32_t* energy, const int16_t* w, int32_t n)
{
    uint64_t acc = 0u;
    int32_t j;
    for (j = 0; j < n; ++j) {
        acc += (uint64_t)(int64_t)w[j] * energy[j];
    }
    return acc;
}

void aot_signal_filter_bank(const uint32_t* energy, const int16_t* weights, const int16_t* unweights,
                            const int16_t* freq_start, const int16_t* weight_start, const int16_t* width,
                            uint32_t* output_words, int32_t channels)
{
    int32_t c;
    for (c = 0; c < channels; ++c) {
        /* Channel c rises over band c + 1 (weights) and falls over band c (unweights). */
        const uint64_t sum = band_sum(energy + freq_start[c + 1], weights + weight_start[c + 1], width[c + 1]) +
                             band_sum(energy + freq_start[c], unweights + weight_start[c], width[c]);
        output_words[2 * c] = (uint32_t)sum;
        output_words[2 * c + 1] = (uint32_t)(sum >> 32);
    }
}
