/* Integer LSTM (int8 activations and weights, int16 gates and cell state), bit-exact with TFLite Micro's
 * reference: every product rescaled with TFLite's rounding and saturated to its type at the same points.
 *
 * The zero points of the input and the hidden state are folded by the compiler into per-row constants
 * (-zero point x row sum, added to the bias), so the matrix products are plain int8 dot products, four weight
 * rows per pass over the vector (SMLAD on DSP cores, dot_rows_s8.h). One pass per group of four gate rows forms
 * both products, rescales each (inline, requant_exact.h), adds them and applies the gate's activation, so no
 * product goes through memory; a second pass updates the cell and hidden state element by element.
 */
#include "aot/kernels/lstm.h"
#include "aot/sigmoid_s16.h"
#include "dot_rows_s8.h"
#include "requant_exact.h"

/* The gate's activation of its Q3.12 pre-activation (multiplier 3, no shift): tanh for the cell gate. */
#define AOT_LSTM_ACT(is_tanh, x) ((is_tanh) ? aot_tanh_s16_elem((int16_t)(x), 3, 0) : \
                                              aot_sigmoid_s16_elem((int16_t)(x), 3, 0))

/* gate[r] = act(sat16(sat16(rq_in(bias[r] + W[r] x)) + sat16(rq_rec(rbias[r] + R[r] h)))) for r < count. */
static void aot_lstm_s8_gate(const int8_t* x, int32_t in_size, const int8_t* w, const int32_t* bias,
                             const int8_t* h, int32_t state_size, const int8_t* r, const int32_t* rbias,
                             struct aot_rq qi, struct aot_rq qr, int32_t is_tanh, int16_t* gate)
{
    int32_t k = 0, j;
    for (; k + 4 <= state_size; k += 4) {
        int32_t ai[4], ar[4];
        for (j = 0; j < 4; j++) {
            ai[j] = bias[k + j];
            ar[j] = rbias[k + j];
        }
        aot_dot4_rows_s8(x, w + k * in_size, in_size, ai);
        aot_dot4_rows_s8(h, r + k * state_size, state_size, ar);
        for (j = 0; j < 4; j++) {
            const int32_t s = aot_sat16(aot_sat16(aot_rq(ai[j], &qi)) + aot_sat16(aot_rq(ar[j], &qr)));
            gate[k + j] = AOT_LSTM_ACT(is_tanh, s);
        }
    }
    for (; k < state_size; k++) {
        const int32_t ai = aot_dot1_s8(x, w + k * in_size, in_size, 0, bias[k]);
        const int32_t ar = aot_dot1_s8(h, r + k * state_size, state_size, 0, rbias[k]);
        const int32_t s = aot_sat16(aot_sat16(aot_rq(ai, &qi)) + aot_sat16(aot_rq(ar, &qr)));
        gate[k] = AOT_LSTM_ACT(is_tanh, s);
    }
}

static void aot_lstm_s8_step(const int8_t* x, const int8_t* input_weights, const int8_t* recurrent_weights,
                             const int32_t* bias, const int32_t* recurrent_bias, int8_t* h, int16_t* c, int8_t* y,
                             int32_t input_size, int32_t state_size, const struct aot_lstm_s8_params* p,
                             int16_t* gates)
{
    /* gates: [4][state_size], input, forget, cell, output. */
    const int16_t* ig = gates;
    const int16_t* fg = gates + state_size;
    const int16_t* cg = gates + 2 * state_size;
    const int16_t* og = gates + 3 * state_size;
    const struct aot_rq qf = aot_rq_prepare(p->forget_mult, p->forget_shift);
    const struct aot_rq qg = aot_rq_prepare(p->input_gate_mult, p->input_gate_shift);
    const struct aot_rq qh = aot_rq_prepare(p->hidden_mult, p->hidden_shift);
    const int32_t clip = p->cell_clip, hz = p->hidden_zero_point;
    const int32_t tanh_mult = p->cell_tanh_mult, tanh_shift = p->cell_tanh_shift;
    int32_t g, k;
    for (g = 0; g < 4; g++) {
        aot_lstm_s8_gate(x, input_size, input_weights + g * state_size * input_size, bias + g * state_size, h,
                         state_size, recurrent_weights + g * state_size * state_size, recurrent_bias + g * state_size,
                         aot_rq_prepare(p->input_mult[g], p->input_shift[g]),
                         aot_rq_prepare(p->recurrent_mult[g], p->recurrent_shift[g]), g == 2, gates + g * state_size);
    }
    for (k = 0; k < state_size; k++) {
        const int32_t kept = aot_sat16(aot_rq((int32_t)fg[k] * c[k], &qf));
        const int32_t added = aot_sat16(aot_rq((int32_t)ig[k] * cg[k], &qg));
        int32_t ck = aot_sat16(kept + added);
        int32_t t, v;
        if (clip >= 0) {
            ck = ck < -clip ? -clip : (ck > clip ? clip : ck);
        }
        c[k] = (int16_t)ck;
        t = aot_tanh_s16_elem((int16_t)ck, tanh_mult, tanh_shift);
        v = aot_sat8(aot_rq(t * og[k], &qh) + hz);
        h[k] = (int8_t)v;
        y[k] = (int8_t)v;
    }
}

void aot_lstm_s8(const int8_t* input, const int8_t* input_weights, const int8_t* recurrent_weights,
                 const int32_t* bias, const int32_t* recurrent_bias, int8_t* hidden, int16_t* cell, int8_t* output,
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
