/* Integer LSTM (int8 activations and weights, int16 gates and cell state), bit-exact with TFLite Micro's
 * reference: every product rescaled with TFLite's rounding and saturated to its type at the same points.
 *
 * The zero points of the input and the hidden state are folded by the compiler into per-row constants
 * (-zero point x row sum, added to the bias), so the matrix products are plain int8 dot products, four weight
 * rows per pass over the vector (SMLAD on DSP cores, dot_rows_s8.h). */
#include "aot/kernels/lstm.h"
#include "aot/requant.h"
#include "aot/sigmoid_s16.h"
#include "dot_rows_s8.h"

static int32_t aot_lstm_clamp(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* out[r] = saturate16(rescale(bias[r] + sum_k w[r][k] * v[k])) for r < count. */
static void aot_lstm_s8_product(const int8_t* v, int32_t n, const int8_t* rows, const int32_t* bias, int32_t count,
                                int32_t mult, int32_t shift, int16_t* out)
{
    int32_t acc[4];
    int32_t r = 0, j;
    for (; r + 4 <= count; r += 4) {
        for (j = 0; j < 4; j++) {
            acc[j] = bias[r + j];
        }
        aot_dot4_rows_s8(v, rows + r * n, n, acc);
        for (j = 0; j < 4; j++) {
            out[r + j] =
                (int16_t)aot_lstm_clamp(aot_multiply_by_quantized_multiplier(acc[j], mult, shift), -32768, 32767);
        }
    }
    for (; r < count; r++) {
        const int32_t a = aot_dot1_s8(v, rows + r * n, n, 0, bias[r]);
        out[r] = (int16_t)aot_lstm_clamp(aot_multiply_by_quantized_multiplier(a, mult, shift), -32768, 32767);
    }
}

static int16_t aot_lstm_mul16(int32_t a, int32_t b, int32_t mult, int32_t shift)
{
    return (int16_t)aot_lstm_clamp(aot_multiply_by_quantized_multiplier(a * b, mult, shift), -32768, 32767);
}

static void aot_lstm_s8_step(const int8_t* x, const int8_t* input_weights, const int8_t* recurrent_weights,
                             const int32_t* bias, const int32_t* recurrent_bias, int8_t* h, int16_t* c, int8_t* y,
                             int32_t input_size, int32_t state_size, const struct aot_lstm_s8_params* p,
                             int16_t* scratch)
{
    int16_t* gates = scratch;                /* [4][state_size]: input, forget, cell, output */
    int16_t* rec = scratch + 4 * state_size; /* [state_size] */
    int32_t g, k;
    for (g = 0; g < 4; g++) {
        int16_t* gate = gates + g * state_size;
        aot_lstm_s8_product(x, input_size, input_weights + g * state_size * input_size, bias + g * state_size,
                            state_size, p->input_mult[g], p->input_shift[g], gate);
        aot_lstm_s8_product(h, state_size, recurrent_weights + g * state_size * state_size,
                            recurrent_bias + g * state_size, state_size, p->recurrent_mult[g], p->recurrent_shift[g],
                            rec);
        for (k = 0; k < state_size; k++) {
            const int16_t sum = (int16_t)aot_lstm_clamp((int32_t)gate[k] + rec[k], -32768, 32767);
            /* Q3.12 in: multiplier 3, no shift. */
            gate[k] = g == 2 ? aot_tanh_s16_elem(sum, 3, 0) : aot_sigmoid_s16_elem(sum, 3, 0);
        }
    }
    for (k = 0; k < state_size; k++) {
        const int16_t kept = aot_lstm_mul16(gates[state_size + k], c[k], p->forget_mult, p->forget_shift);
        const int16_t added =
            aot_lstm_mul16(gates[k], gates[2 * state_size + k], p->input_gate_mult, p->input_gate_shift);
        int32_t ck = aot_lstm_clamp((int32_t)kept + added, -32768, 32767);
        if (p->cell_clip >= 0) {
            ck = aot_lstm_clamp(ck, -p->cell_clip, p->cell_clip);
        }
        c[k] = (int16_t)ck;
    }
    for (k = 0; k < state_size; k++) {
        const int32_t t = aot_tanh_s16_elem(c[k], p->cell_tanh_mult, p->cell_tanh_shift);
        const int32_t v =
            aot_multiply_by_quantized_multiplier(t * gates[3 * state_size + k], p->hidden_mult, p->hidden_shift) +
            p->hidden_zero_point;
        h[k] = (int8_t)aot_lstm_clamp(v, -128, 127);
        y[k] = h[k];
    }
}

void aot_lstm_s8(const int8_t* input, const int8_t* input_weights, const int8_t* recurrent_weights, const int32_t* bias,
                 const int32_t* recurrent_bias, int8_t* hidden, int16_t* cell, int8_t* output,
                 const struct aot_lstm_shape* shape, const struct aot_lstm_s8_params* params, int16_t* scratch)
{
    const int32_t B = shape->batches, T = shape->time_steps, I = shape->input_size, S = shape->state_size;
    int32_t b, t;
    for (b = 0; b < B; b++) {
        for (t = 0; t < T; t++) {
            const int32_t row = shape->time_major ? t * B + b : b * T + t;
            aot_lstm_s8_step(input + row * I, input_weights, recurrent_weights, bias, recurrent_bias, hidden + b * S,
                             cell + b * S, output + row * S, I, S, params, scratch);
        }
    }
}
