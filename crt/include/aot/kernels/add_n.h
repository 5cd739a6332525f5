/* int8 ADD_N as TFLite Micro computes it, one input per call into an int32 accumulator (scratch):
 * aot_add_n_s8_begin sets acc to the scaled input offset (TFLite Micro starts its sum from the input's negated zero
 * point, not from 0), aot_add_n_s8_add adds each input's (q - zp) << 20 scaled by one half, and aot_add_n_s8_end
 * requantizes to the output (multiplier below one) and saturates.  */
#ifndef AOT_KERNELS_ADD_N_H_
#define AOT_KERNELS_ADD_N_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_add_n_s8_begin(int32_t* acc, int32_t size, int32_t input_offset, int32_t in_multiplier, int32_t in_shift);
void aot_add_n_s8_add(const int8_t* input, int32_t* acc, int32_t size, int32_t input_offset, int32_t in_multiplier,
                      int32_t in_shift);
void aot_add_n_s8_end(const int32_t* acc, int8_t* output, int32_t size, int32_t out_multiplier, int32_t out_shift,
                      int32_t output_offset);

#ifdef __cplusplus
}
#endif

#endif
