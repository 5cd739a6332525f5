/* SignalFftAutoScale: shift an int16 frame left so that its peak uses the whole int16 range before the FFT. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"
#include "signal_fixed.h"

void aot_signal_fft_auto_scale_s16(const int16_t* input, int16_t* output, int32_t* scale_bits, int32_t size)
{
    /* The running maximum is an int16 as in TFLite Micro: -(-32768) wraps to -32768, after which any larger
     * sample replaces it.  The same values must decide the shift, or the spectra differ. */
    int16_t peak = 0;
    int32_t i, bits, top = 0;
    for (i = 0; i < size; ++i) {
        const int16_t v = input[i];
        if (v > peak) {
            peak = v;
        } else if (-(int32_t)v > peak) {
            peak = aot_sig_wrap16(-(int32_t)v);
        }
    }
    if (peak > 0) {
        uint32_t p = (uint32_t)peak;
        while (p != 0u) {
            p >>= 1;
            ++top;
        }
        bits = 15 - top;
    } else {
        bits = 0; /* no sample, or the peak wrapped to -32768: TFLite Micro's top-bit index is 32 then */
    }
    for (i = 0; i < size; ++i) {
        output[i] = aot_sig_wrap16((int32_t)((uint32_t)(int32_t)input[i] << bits));
    }
    *scale_bits = bits;
}
