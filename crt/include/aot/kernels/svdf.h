/* SVDF (singular value decomposition filter): a feature projection whose results are kept, memory_size steps deep
 * per filter, in a state the kernel updates in place from one invocation to the next (the model's state buffer).
 *
 * Each invocation: the input's projection on every filter becomes the newest step of the filter's state row (the
 * oldest step is dropped), then each unit's output is its bias plus, over its `rank` filters, the dot product of the
 * filter's time weights (oldest step first) with its state row.
 *
 * The state [batches][num_filters][memory_size] is kept as rings: every row holds its last memory_size steps
 * starting at *position (the oldest), which each invocation overwrites with the newest and advances, instead of
 * moving the whole state one step (TFLite Micro's layout) every time. *position is 0 after a reset, when every
 * step holds the same value, so the two layouts agree from the first invocation on.
 *
 * The integer variants hold each batch's state slot-major instead, [memory_size][num_filters] (slot s of every
 * filter contiguous), and take weights_time transposed the same way, [memory_size][num_filters], so that the time
 * products of neighbouring filters are computed side by side (crt/src/kernels/svdf_s8.c).
 */
#ifndef AOT_KERNELS_SVDF_H_
#define AOT_KERNELS_SVDF_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shapes shared by every variant: units = num_filters / rank. */
struct aot_svdf_shape {
    int32_t batches;
    int32_t input_size;
    int32_t num_filters;
    int32_t rank;
    int32_t memory_size;
};

/* int8 variants: projection rescaled by (feature_mult, feature_shift) into the state's quantization, output by
 * (output_mult, output_shift); the fused activation is not applied (as in TFLite Micro's integer kernel).
 * The zero points come folded in by the compiler: feature_bias[f] = -input zero point x (row f of
 * weights_feature summed) + the raw form's adjustment, time_bias[f] = -state zero point x (row f of weights_time
 * summed). weights_feature comes in the raw-weight-word form (compiler/ops/common/dsp_layout.py: raw_word_rows) with
 * its rows in groups of four, interleaved as aot_dot4_group_raw reads them (crt/src/kernels/dot_rows_s8.h), the last
 * num_filters % 4 rows row by row. xbuf: scratch of 2 x (input_size / 4) words (the input's quads expanded once per
 * batch; used on DSP cores). */
struct aot_svdf_s8_params {
    int32_t state_zero_point;
    int32_t output_zero_point;
    int32_t feature_mult;
    int32_t feature_shift;
    int32_t output_mult;
    int32_t output_shift;
};

/* int16 time weights and state. */
void aot_svdf_s8_s16(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                     const int16_t* weights_time, const int32_t* time_bias, const int32_t* bias, int16_t* state,
                     int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                     const struct aot_svdf_s8_params* params, uint32_t* xbuf);

/* int8 time weights and state. */
void aot_svdf_s8_s8(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                    const int8_t* weights_time, const int32_t* time_bias, const int32_t* bias, int8_t* state,
                    int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                    const struct aot_svdf_s8_params* params, uint32_t* xbuf);

/* float32; output clamped to [act_min, act_max]. */
void aot_svdf_f32(const float* input, const float* weights_feature, const float* weights_time, const float* bias,
                  float* state, int32_t* position, float* output, const struct aot_svdf_shape* shape, float act_min,
                  float act_max);

#ifdef __cplusplus
}
#endif

#endif /* AOT_KERNELS_SVDF_H_ */
