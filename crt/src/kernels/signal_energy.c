/* SignalEnergy: power of int16 complex spectrum bins as uint32. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

void aot_signal_energy_s16(const int16_t* input, uint32_t* output, int32_t size, int32_t start, int32_t end)
{
    int32_t k;
    for (k = 0; k < size; ++k) {
        output[k] = 0u;
    }
    for (k = start; k < end; ++k) {
        const int32_t re = input[2 * k];
        const int32_t im = input[2 * k + 1];
        /* Each square fits int32 (at most 2^30); their sum may reach 2^31, so it is taken in uint32, which gives
         * the bits TFLite Micro stores. */
        output[k] = (uint32_t)(re * re) + (uint32_t)(im * im);
    }
}
