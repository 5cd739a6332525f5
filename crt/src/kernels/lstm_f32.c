/* float32 LSTM in TFLite Micro's reference order of operations: each gate's input product plus its bias, then the
 * recurrent product (summed from 0.0f) added, then the activation; the cell update as two products and a sum. */
#include "aot_sched.h"

#include <float.h>

#include "aot/kernels/lstm.h"
#include "aot/kernels/logistic.h"
#include "aot/kernels/tanh.h"

static void aot_lstm_f32_product(const float* v, int32_t n, const float* rows, int32_t count, float* out)
{
    int32_t r, k;
    for (r = 0; r < count; r++) {
        const float* w = rows + r * n;
        float acc = 0.0f;
        for (k = 0; k < n; k++) {
            acc += v[k] * w[k];
        }
        out[r] = acc;
    }
}

/* One time step of one batch row: x [input_size] -> h, c [state_size] updated, y = h. */
static void aot_lstm_f32_step(const float* x, const float* input_weights, const float* recurrent_weights,
                              const float* bias, float* h, float* c, float* y, int32_t input_size, int32_t state_size,
                              float cell_clip, float* scratch)
{
    float* gates = scratch;                /* [4][state_size]: input, forget, cell, output */
    float* rec = scratch + 4 * state_size; /* [state_size] */
    int32_t g, k;
    for (g = 0; g < 4; g++) {
        float* gate = gates + g * state_size;
        aot_lstm_f32_product(x, input_size, input_weights + g * state_size * input_size, state_size, gate);
        aot_lstm_f32_product(h, state_size, recurrent_weights + g * state_size * state_size, state_size, rec);
        for (k = 0; k < state_size; k++) {
            gate[k] = (gate[k] + bias[g * state_size + k]) + rec[k];
        }
        if (g == 2) {
            aot_tanh_f32(gate, gate, state_size);
        } else {
            aot_logistic_f32(gate, gate, state_size);
        }
    }
    for (k = 0; k < state_size; k++) {
        float ck = gates[state_size + k] * c[k] + gates[k] * gates[2 * state_size + k];
        if (cell_clip > 0.0f) {
            ck = ck > cell_clip ? cell_clip : (ck < -cell_clip ? -cell_clip : ck);
        }
        c[k] = ck;
    }
    aot_tanh_f32(c, rec, state_size);
    for (k = 0; k < state_size; k++) {
        h[k] = rec[k] * gates[3 * state_size + k];
        y[k] = h[k];
    }
}

void aot_lstm_f32(const float* input, const float* input_weights, const float* recurrent_weights, const float* bias,
                  float* hidden, float* cell, float* output, const struct aot_lstm_shape* shape, float cell_clip,
                  float* scratch)
{
    const int32_t B = shape->batches, T = shape->time_steps, I = shape->input_size, S = shape->state_size;
    int32_t b, t;
    for (b = 0; b < B; b++) {
        for (t = 0; t < T; t++) {
            const int32_t row = shape->time_major ? t * B + b : b * T + t;
            aot_lstm_f32_step(input + row * I, input_weights, recurrent_weights, bias, hidden + b * S, cell + b * S,
                              output + row * S, I, S, cell_clip, scratch);
        }
    }
}
