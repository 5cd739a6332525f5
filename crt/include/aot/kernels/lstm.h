/* UNIDIRECTIONAL_SEQUENCE_LSTM (the standard LSTM: input gate, no peephole, projection or layer norm).
 *
 * For every batch row and time step: each gate g of (input, forget, cell, output) is
 *   g = act(W_g x_t + b_g + R_g h)      act = sigmoid, tanh for the cell gate
 * then c = f * c + i * g (clipped to +-cell_clip when set), h = o * tanh(c), and y_t = h. The hidden state h and
 * the cell state c are the model's state (they carry over to the next invocation).
 *
 * Weights are packed by the compiler in gate order (input, forget, cell, output): input_weights
 * [4][state_size][input_size], recurrent_weights [4][state_size][state_size], bias [4][state_size]. In the
 * integer form each gate's block is stored in the raw-weight-word form (bytes 0 and 2 of every quad + 128, the
 * bias adjusted) with its rows in groups of four, interleaved as aot_dot4_group_raw reads them
 * (crt/src/kernels/dot_rows_s8.h); the last state_size % 4 rows of each block follow row by row.
 */
#ifndef AOT_KERNELS_LSTM_H_
#define AOT_KERNELS_LSTM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct aot_lstm_shape {
    int32_t batches;
    int32_t time_steps;
    int32_t input_size;
    int32_t state_size;
    int32_t time_major; /* 1: input [time][batch][input]; 0: [batch][time][input] */
};

/* float32. scratch: 5 * state_size floats. cell_clip <= 0: no clipping. */
void aot_lstm_f32(const float* input, const float* input_weights, const float* recurrent_weights, const float* bias,
                  float* hidden, float* cell, float* output, const struct aot_lstm_shape* shape, float cell_clip,
                  float* scratch);

/* Integer: int8 input, hidden state and output, int8 weights, int32 bias, int16 gates and cell state.
 * Each gate's two matrix products are rescaled to Q3.12 by its own multipliers; see the fields. The zero points
 * are folded in by the compiler: bias [4][state_size] holds b_g - input_zp * (row sums of W_g), recurrent_bias
 * [4][state_size] holds -hidden_zp * (row sums of R_g). */
struct aot_lstm_s8_params {
    int32_t hidden_zero_point; /* of the hidden state (and output) */
    int32_t input_mult[4];     /* per gate: W_g x rescale to Q3.12 */
    int32_t input_shift[4];
    int32_t recurrent_mult[4]; /* per gate: R_g h rescale to Q3.12 */
    int32_t recurrent_shift[4];
    int32_t forget_mult; /* f (Q0.15) x c -> c */
    int32_t forget_shift;
    int32_t input_gate_mult; /* i (Q0.15) x g (Q0.15) -> c */
    int32_t input_gate_shift;
    int32_t hidden_mult; /* tanh(c) (Q0.15) x o (Q0.15) -> h */
    int32_t hidden_shift;
    int32_t cell_clip;      /* quantized; negative: no clipping */
    int32_t cell_tanh_mult; /* tanh(c) input rescale (from the cell state's power-of-two scale) */
    int32_t cell_tanh_shift;
};

/* scratch (4-byte aligned): 4 * S' int16 (the gates of one step; S' = state_size rounded up to even), then
 * 8 * state_size int32 (the input and recurrent products of every gate row), then 2 * (max(input_size,
 * state_size) / 4) words (a vector's quads expanded to the raw-weight-word operands, on DSP cores). */
void aot_lstm_s8(const int8_t* input, const int8_t* input_weights, const int8_t* recurrent_weights, const int32_t* bias,
                 const int32_t* recurrent_bias, int8_t* hidden, int16_t* cell, int8_t* output,
                 const struct aot_lstm_shape* shape, const struct aot_lstm_s8_params* params, int16_t* scratch);

#ifdef __cplusplus
}
#endif

#endif /* AOT_KERNELS_LSTM_H_ */
