/* SignalFilterBankSpectralSubtraction: subtract a running noise estimate from each filter bank channel.
 *
 * The estimate's update is a weighted sum of the scaled-up signal and the previous estimate in 64 bits (the
 * signal library's own arithmetic; the 32-bit result keeps the low word).  The estimate lives in the model's
 * state buffer, so it carries over from one run to the next and a reset zeroes it, as TFLite Micro's does. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

void aot_signal_spectral_subtraction(const uint32_t* input, uint32_t* output, uint32_t* noise_out,
                                     uint32_t* noise_state, int32_t size, const int32_t* config)
{
    const uint32_t smoothing_bits = (uint32_t)config[5];
    const uint32_t bits = (uint32_t)config[6];
    const int32_t clamping = config[7];
    int32_t i;
    for (i = 0; i < size; ++i) {
        const uint32_t smoothing = (uint32_t)config[(i & 1) ? 2 : 0];
        const uint32_t keep = (uint32_t)config[(i & 1) ? 3 : 1];
        const uint32_t x = input[i];
        const uint32_t scaled = x << smoothing_bits;
        uint32_t estimate = (uint32_t)(((uint64_t)scaled * smoothing + (uint64_t)noise_state[i] * keep) >> bits);
        const uint32_t floor_value = (uint32_t)(((uint64_t)x * (uint32_t)config[4]) >> bits);
        uint32_t subtracted;
        noise_state[i] = estimate;
        if (estimate > scaled) {
            estimate = scaled;
            if (clamping) {
                noise_state[i] = estimate;
            }
        }
        subtracted = (scaled - estimate) >> smoothing_bits;
        output[i] = subtracted > floor_value ? subtracted : floor_value;
        noise_out[i] = noise_state[i];
    }
}
