/* int16 sigmoid and tanh by interpolation in a 256-entry table of sigmoid(i/24) (tanh(x) = 2 sigmoid(2x) - 1),
 * with TFLite's int16 rounding: the gates of the integer LSTM, and any int16 LOGISTIC / TANH.
 *
 * The input is first rescaled: x * multiplier (rounded) >> shift, where multiplier 3 and shift 0 read an input in
 * Q3.12 (the scale 2^-12 of the LSTM's gate pre-activations). Outputs are Q0.15.
 */
#ifndef AOT_SIGMOID_S16_H_
#define AOT_SIGMOID_S16_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int16_t aot_sigmoid_s16(int16_t x, int32_t multiplier, int32_t shift);
int16_t aot_tanh_s16(int16_t x, int32_t multiplier, int32_t shift);

#ifdef __cplusplus
}
#endif

#endif /* AOT_SIGMOID_S16_H_ */
