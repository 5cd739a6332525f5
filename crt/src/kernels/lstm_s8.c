/* Integer LSTM (int8 activations and weights, int16 gates and cell state), bit-exact with TFLite Micro's
 * reference: every product rescaled with TFLite's rounding and saturated to its type at the same points.
 *
 * The zero points of the input and the hidden state are folded by the compiler into per-row constants
 * (-zero point x row sum, added to the bias), so the matrix products are plain int8 dot products, four weight
 * rows per pass over the vector, stored interleaved by the compiler in the raw-weight-word form (three instructions
 * per four MACs on DSP cores, dot_rows_s8.h). Each step
 * forms all four gates' products of the input, then of the hidden state, as int32 rows (tight loops with their
 * registers to themselves), rescales and adds them per gate row (inline, requant_exact.h) with the gate's
 * activation, and two last passes update the cell state, then the hidden state, element by element.
 */
#include "aot_sched.h"

#include "aot/kernels/lstm.h"
#include "aot/sigmoid_s16.h"
#include "dot_rows_s8.h"
#include "requant_exact.h"

#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
/* One quad of the vector (its expanded pair at xp) times the four rows' words at wp, into a0..a3. */
#define AOT_LSTM_S8_QUAD()                                                                                             \
    do {                                                                                                               \
        uint32_t xa, xc, q0, q1;                                                                                       \
        aot_load2(&xp, &xa, &xc);                                                                                      \
        aot_load2(&wp, &q0, &q1);                                                                                      \
        a0 = aot_smlad(q0, xa, a0);                                                                                    \
        a0 = aot_smlad(aot_sxtb16_ror8(q0), xc, a0);                                                                   \
        a1 = aot_smlad(q1, xa, a1);                                                                                    \
        a1 = aot_smlad(aot_sxtb16_ror8(q1), xc, a1);                                                                   \
        aot_load2(&wp, &q0, &q1);                                                                                      \
        a2 = aot_smlad(q0, xa, a2);                                                                                    \
        a2 = aot_smlad(aot_sxtb16_ror8(q0), xc, a2);                                                                   \
        a3 = aot_smlad(q1, xa, a3);                                                                                    \
        a3 = aot_smlad(aot_sxtb16_ror8(q1), xc, a3);                                                                   \
    } while (0)
#endif

/* out[r] = bias[r] + W[r] v for the 4 * state_size rows of W: four gate blocks, each in the compiler's group order
 * (aot_dot4_group_s8) with its last state_size % 4 rows row by row. Kept out of line so its loop has the registers
 * to itself. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
aot_lstm_s8_matvec(const int8_t* v, int32_t n, const int8_t* w, const int32_t* bias, int32_t state_size, int32_t* out,
                   uint32_t* xbuf)
{
    const int32_t corr = aot_expand_quads_raw(v, n, xbuf);
    int32_t g, k;
#if defined(__ARM_FEATURE_DSP) && defined(__GNUC__)
    if ((n & 3) == 0 && ((uintptr_t)w & 3u) == 0u) {
        /* Whole quads and word-aligned weights (the usual case: the arrays are, and every group and row is then a
         * whole number of words): the groups of a gate back to back, each quad's four weight words by two LDRD
         * and the vector's expanded pair by one, the loop's state in registers. */
        const uint32_t* const xend = xbuf + (n >> 1);
        /* Two quads per iteration (one loop test for eight words), the odd quad after. */
        const uint32_t* const xpairs = xbuf + ((n >> 3) << 2);
        /* The int8 weights as a word stream: read only by aot_load2, whose memory operand is of the may-alias word
         * type (aot_words.h), and converted back to bytes for the last rows. */
        const uint32_t* wp = (const uint32_t*)(const void*)w;
        for (g = 0; g < 4; g++) {
            const int32_t* const gend = bias + (state_size & ~3);
            while (bias != gend) {
                int32_t a0 = bias[0] - corr, a1 = bias[1] - corr, a2 = bias[2] - corr, a3 = bias[3] - corr;
                const uint32_t* xp = xbuf;
                while (xp != xpairs) {
                    AOT_LSTM_S8_QUAD();
                    AOT_LSTM_S8_QUAD();
                }
                if (xp != xend) {
                    AOT_LSTM_S8_QUAD();
                }
                out[0] = a0;
                out[1] = a1;
                out[2] = a2;
                out[3] = a3;
                out += 4;
                bias += 4;
            }
            for (k = state_size & ~3; k < state_size; k++) {
                *out++ = aot_dot1_raw(xbuf, v, (const int8_t*)(const void*)wp, n, *bias++ - corr);
                wp += n >> 2;
            }
        }
        return;
    }
#endif
    for (g = 0; g < 4; g++) {
        for (k = 0; k + 4 <= state_size; k += 4) {
            out[0] = bias[0] - corr;
            out[1] = bias[1] - corr;
            out[2] = bias[2] - corr;
            out[3] = bias[3] - corr;
            w = aot_dot4_group_raw(xbuf, v, w, n, out);
            out += 4;
            bias += 4;
        }
        for (; k < state_size; k++) {
            *out++ = aot_dot1_raw(xbuf, v, w, n, *bias++ - corr);
            w += n;
        }
    }
}

/* The sum of a gate row's two rescaled products, saturated as TFLite Micro adds them. */
#define AOT_LSTM_PRE(i) aot_sat16(aot_sat16(aot_rq(acc_in[i], &qi)) + aot_sat16(aot_rq(acc_rec[i], &qr)))

/* Both rescalings right shifts (the usual case): their constants stay in registers, no branch per row. */
#define AOT_LSTM_PRE_RIGHT(i)                                                                                          \
    aot_sat16(aot_sat16(aot_rq_right(acc_in[i], qi.mult, qi.c_lo, qi.c_hi, qi.right)) +                                \
              aot_sat16(aot_rq_right(acc_rec[i], qr.mult, qr.c_lo, qr.c_hi, qr.right)))

/* One gate's rows: out[k] = act(pre(k)) for k < n, act tanh for the cell gate, sigmoid otherwise. Out of line so
 * its loop has the registers to itself. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
aot_lstm_s8_gate(const int32_t* acc_in, const int32_t* acc_rec, int32_t n, const struct aot_rq* qi_p,
                 const struct aot_rq* qr_p, int32_t is_tanh, int16_t* out)
{
    /* By pointer: a struct passed by value makes GCC spill it below the saved registers. */
    const struct aot_rq qi = *qi_p;
    const struct aot_rq qr = *qr_p;
    int32_t k;
    if (qi.right >= 0 && qr.right >= 0) {
        if (is_tanh) {
            for (k = 0; k < n; k++) {
                out[k] = aot_tanh_s16_elem(AOT_LSTM_PRE_RIGHT(k), 3, 0);
            }
        } else {
            for (k = 0; k < n; k++) {
                out[k] = aot_sigmoid_s16_elem(AOT_LSTM_PRE_RIGHT(k), 3, 0);
            }
        }
    } else if (is_tanh) {
        for (k = 0; k < n; k++) {
            out[k] = aot_tanh_s16_elem(AOT_LSTM_PRE(k), 3, 0);
        }
    } else {
        for (k = 0; k < n; k++) {
            out[k] = aot_sigmoid_s16_elem(AOT_LSTM_PRE(k), 3, 0);
        }
    }
}

/* The cell and hidden update of one step: c = sat16(rq_f(f c) + rq_g(i g)) (clipped), then h = y = rq_h(tanh(c) o) +
 * zp, in two passes so each keeps its pointers and its rescalings' constants in registers. Macros over the
 * rescaling so the usual case (right shifts) has no branch per element. */
#define AOT_LSTM_CELL_C_LOOP(RQ_F, RQ_G)                                                                               \
    for (k = 0; k < state_size; k++) {                                                                                 \
        const int32_t kept = aot_sat16(RQ_F((int32_t)fg[k] * c[k]));                                                   \
        const int32_t added = aot_sat16(RQ_G((int32_t)ig[k] * cg[k]));                                                 \
        int32_t ck = aot_sat16(kept + added);                                                                          \
        if (clip >= 0) {                                                                                               \
            ck = ck < -clip ? -clip : (ck > clip ? clip : ck);                                                         \
        }                                                                                                              \
        c[k] = (int16_t)ck;                                                                                            \
    }

#define AOT_LSTM_CELL_H_LOOP(RQ_H)                                                                                     \
    for (k = 0; k < state_size; k++) {                                                                                 \
        const int32_t t = aot_tanh_s16_elem(c[k], tanh_mult, tanh_shift);                                              \
        const int32_t v = aot_sat8(RQ_H(t * og[k]) + hz);                                                              \
        h[k] = (int8_t)v;                                                                                              \
        y[k] = (int8_t)v;                                                                                              \
    }

#define AOT_LSTM_RQ_F(x)       aot_rq((x), &qf)
#define AOT_LSTM_RQ_G(x)       aot_rq((x), &qg)
#define AOT_LSTM_RQ_H(x)       aot_rq((x), &qh)
#define AOT_LSTM_RQ_F_RIGHT(x) aot_rq_right((x), qf.mult, qf.c_lo, qf.c_hi, qf.right)
#define AOT_LSTM_RQ_G_RIGHT(x) aot_rq_right((x), qg.mult, qg.c_lo, qg.c_hi, qg.right)
#define AOT_LSTM_RQ_H_RIGHT(x) aot_rq_right((x), qh.mult, qh.c_lo, qh.c_hi, qh.right)

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
aot_lstm_s8_cell(const int16_t* gates, int32_t state_size, const struct aot_lstm_s8_params* p, int16_t* c, int8_t* h,
                 int8_t* y)
{
    const int16_t* ig = gates;
    const int16_t* fg = gates + state_size;
    const int16_t* cg = gates + 2 * state_size;
    const int16_t* og = gates + 3 * state_size;
    const struct aot_rq qf = aot_rq_prepare(p->forget_mult, p->forget_shift);
    const struct aot_rq qg = aot_rq_prepare(p->input_gate_mult, p->input_gate_shift);
    const struct aot_rq qh = aot_rq_prepare(p->hidden_mult, p->hidden_shift);
    const int32_t clip = p->cell_clip, hz = p->hidden_zero_point;
    const int32_t tanh_mult = p->cell_tanh_mult, tanh_shift = p->cell_tanh_shift;
    int32_t k;
    if (qf.right >= 0 && qg.right >= 0) {
        AOT_LSTM_CELL_C_LOOP(AOT_LSTM_RQ_F_RIGHT, AOT_LSTM_RQ_G_RIGHT)
    } else {
        AOT_LSTM_CELL_C_LOOP(AOT_LSTM_RQ_F, AOT_LSTM_RQ_G)
    }
    if (qh.right >= 0) {
        AOT_LSTM_CELL_H_LOOP(AOT_LSTM_RQ_H_RIGHT)
    } else {
        AOT_LSTM_CELL_H_LOOP(AOT_LSTM_RQ_H)
    }
}

static void aot_lstm_s8_step(const int8_t* x, const int8_t* input_weights, const int8_t* recurrent_weights,
                             const int32_t* bias, const int32_t* recurrent_bias, int8_t* h, int16_t* c, int8_t* y,
                             int32_t input_size, int32_t state_size, const struct aot_lstm_s8_params* p, int16_t* gates,
                             int32_t* acc_in, int32_t* acc_rec)
{
    /* gates: [4][state_size], input, forget, cell, output. */
    int32_t g;
    /* The expanded vector (DSP cores) after both product rows: 2 words per quad of the longer vector. */
    aot_lstm_s8_matvec(x, input_size, input_weights, bias, state_size, acc_in, (uint32_t*)(acc_rec + 4 * state_size));
    aot_lstm_s8_matvec(h, state_size, recurrent_weights, recurrent_bias, state_size, acc_rec,
                       (uint32_t*)(acc_rec + 4 * state_size));
    for (g = 0; g < 4; g++) {
        /* Each gate's products rescaled to Q3.12 (multiplier 3, no shift, for the activation's input). */
        const struct aot_rq qi = aot_rq_prepare(p->input_mult[g], p->input_shift[g]);
        const struct aot_rq qr = aot_rq_prepare(p->recurrent_mult[g], p->recurrent_shift[g]);
        aot_lstm_s8_gate(acc_in + g * state_size, acc_rec + g * state_size, state_size, &qi, &qr, g == 2,
                         gates + g * state_size);
    }
    aot_lstm_s8_cell(gates, state_size, p, c, h, y);
}

void aot_lstm_s8(const int8_t* input, const int8_t* input_weights, const int8_t* recurrent_weights, const int32_t* bias,
                 const int32_t* recurrent_bias, int8_t* hidden, int16_t* cell, int8_t* output,
                 const struct aot_lstm_shape* shape, const struct aot_lstm_s8_params* params, int16_t* scratch)
{
    const int32_t B = shape->batches, T = shape->time_steps, I = shape->input_size, S = shape->state_size;
    /* After the 4 S gates (int16), at a multiple of 4 bytes: the two products of every gate row (int32). */
    int32_t* const acc = (int32_t*)(void*)(scratch + 4 * ((S + 1) / 2 * 2));
    int32_t b, t;
    for (b = 0; b < B; b++) {
        for (t = 0; t < T; t++) {
            const int32_t row = shape->time_major ? t * B + b : b * T + t;
            aot_lstm_s8_step(input + row * I, input_weights, recurrent_weights, bias, recurrent_bias, hidden + b * S,
                             cell + b * S, output + row * S, I, S, params, scratch, acc, acc + 4 * S);
        }
    }
}
