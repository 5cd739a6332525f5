/* SignalWindow: each frame of int16 samples times the int16 window, shifted down and saturated to int16. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

void aot_signal_window_s16(const int16_t* input, const int16_t* window, int16_t* output, int32_t size, int32_t frame,
                           int32_t shift)
{
    int32_t i, j;
    for (i = 0; i < size; i += frame) {
        for (j = 0; j < frame; ++j) {
            /* |in * w| <= 2^30: no overflow; the arithmetic shift floors as TFLite Micro's does. */
            int32_t v = ((int32_t)input[i + j] * window[j]) >> shift;
            if (v > INT16_MAX) {
                v = INT16_MAX;
            } else if (v < INT16_MIN) {
                v = INT16_MIN;
            }
            output[i + j] = (int16_t)v;
        }
    }
}
