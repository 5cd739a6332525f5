/* TFLite Micro's signal operators (the audio front-end of micro_speech), bit-exact with its signal library.
 *
 * Every parameter TFLite Micro reads from the operator's FlexBuffer options is a compile-time constant here; tables
 * (the log2 correction) are const arrays the compiler computes.  One operator per source file. */
#ifndef AOT_KERNELS_SIGNAL_H_
#define AOT_KERNELS_SIGNAL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = saturate_int16((in[i] * window[i % frame]) >> shift), size a multiple of frame. */
void aot_signal_window_s16(const int16_t* input, const int16_t* window, int16_t* output, int32_t size, int32_t frame,
                           int32_t shift);

/* out[k] = re[k]^2 + im[k]^2 (wrapping in uint32) for start <= k < end of the interleaved complex input; other
 * bins 0. */
void aot_signal_energy_s16(const int16_t* input, uint32_t* output, int32_t size, int32_t start, int32_t end);

/* out[i] = min(32767, scale * ln(in[i] << correction_bits)) in TFLite Micro's fixed point; log2_table holds the
 * 129 (+1 padding) corrections log2(1 + f) - f in 1/65536. */
void aot_signal_filter_bank_log(const uint32_t* input, int16_t* output, int32_t size, int32_t correction_bits,
                                int32_t scale, const uint16_t* log2_table);

/* Filter bank: channel c (0 <= c < channels) = sum over band c+1 of weights * energy plus sum over band c of
 * unweights * energy (band j: width[j] bins from freq_start[j], weights from weight_start[j]), as 64-bit values
 * stored as two uint32 words, low word first. */
void aot_signal_filter_bank(const uint32_t* energy, const int16_t* weights, const int16_t* unweights,
                            const int16_t* freq_start, const int16_t* weight_start, const int16_t* width,
                            uint32_t* output_words, int32_t channels);

/* out[i] = isqrt(in[i]) >> *scale_bits, in[i] a 64-bit value as two uint32 words (low first). */
void aot_signal_filter_bank_sqrt(const uint32_t* input_words, const int32_t* scale_bits, uint32_t* output,
                                 int32_t size);

/* Scales the int16 frame up by the largest power of two that keeps its peak (as TFLite Micro's running
 * maximum of |x| finds it, wrapping at -32768) within int16; *scale_bits = that power. */
void aot_signal_fft_auto_scale_s16(const int16_t* input, int16_t* output, int32_t* scale_bits, int32_t size);

/* PCAN (per-channel amplitude normalization): gain from the noise estimate through the 4-entries-per-octave gain
 * table, snr = (in * gain) >> snr_shift, then the soft compression to 6 output bits. */
void aot_signal_pcan(const uint32_t* input, const uint32_t* noise_estimate, const int16_t* gain_table, uint32_t* output,
                     int32_t size, int32_t snr_shift);

/* Real FFT of int16 frames (TFLite Micro's fixed-point kissfft form): each frame of frame_length samples, zero
 * padded to fft_length = 2 * half, gives half + 1 complex bins (re, im interleaved).  The half-length complex FFT
 * runs in radix-4 / radix-2 stages (factors: radix, span pairs) scaling by 1/radix per stage; then the split into
 * real bins scales by 1/2.  twiddles: half complex int16 values exp(-2 pi i k / half); split_twiddles: half / 2
 * values exp(-i pi ((k + 1) / half + 1/2)); scratch: 4 * fft_length bytes. */
void aot_signal_rfft_s16(const int16_t* input, int16_t* output, int32_t frames, int32_t frame_length, int32_t half,
                         const int32_t* factors, const int16_t* twiddles, const int16_t* split_twiddles,
                         int16_t* scratch);

/* Spectral subtraction: per channel the noise estimate (persistent, zero after a reset) follows the signal with
 * the even / odd channels' smoothing; the output is the signal minus the estimate, at least min_remaining of it.
 * config: smoothing, one_minus_smoothing, alternate_smoothing, alternate_one_minus_smoothing,
 * min_signal_remaining, smoothing_bits, spectral_subtraction_bits, clamping (0/1). */
void aot_signal_spectral_subtraction(const uint32_t* input, uint32_t* output, uint32_t* noise_out,
                                     uint32_t* noise_state, int32_t size, const int32_t* config);

#ifdef __cplusplus
}
#endif

#endif
