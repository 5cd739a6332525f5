/* int8 SVDF with an int16 or int8 state, bit-exact with TFLite Micro's reference integer kernel.
 *
 * The two variants differ only in the element type of the time weights and the state, so one body is written as a
 * macro over that type. Sums of time products wrap modulo 2^32 (unsigned in C, SMLAxy on DSP cores): int16 x int16
 * products summed over the memory may exceed int32, where the reference wraps on every machine it runs on, and
 * signed overflow would be undefined behaviour here.
 *
 * Zero points are folded by the compiler into per-filter constants (-zero point x row sum): feature_bias for the
 * input's, time_bias for the state's, so the products are plain dot products (the feature one four filters per
 * pass over the input, its weights in the raw-weight-word form interleaved by the compiler in groups of four rows:
 * aot_dot4_group_raw, the input's quads expanded once per batch into xbuf: one SXTB16 per weight word).
 *
 * The integer variants keep the state slot-major, [memory][num_filters] per batch (aot/kernels/svdf.h), and the
 * compiler stores the time weights transposed the same way, [memory][num_filters]: the newest step of every filter
 * is one contiguous row (slot), and the time products of four neighbouring filters walk both arrays one word (or
 * two) per step, each filter in its own 16-bit lane. Requantization is TFLite's exact arithmetic inline
 * (requant_exact.h), four values per out-of-line call with the layer's constants in registers.
 */
#include "aot_sched.h"

#include "aot/kernels/svdf.h"
#include "dot_rows_s8.h"
#include "requant_exact.h"

/* a[j] += sum over the steps of w[j] * s[j] for filters j < 4, s walking `count` slots from `s` (stride filters).
 * Two steps per pass: the loop's own instructions weigh on four filters' four products. */
#if defined(__ARM_FEATURE_DSP)
#define AOT_SVDF_STEP_S8(w, s)                                                                                         \
    do {                                                                                                               \
        const uint32_t sv = aot_read32(s), wv = aot_read32(w);                                                         \
        const uint32_t se = aot_sxtb16(sv), we = aot_sxtb16(wv);                                                       \
        const uint32_t so = aot_sxtb16_ror8(sv), wo = aot_sxtb16_ror8(wv);                                             \
        a0 = (uint32_t)aot_smlabb(se, we, (int32_t)a0);                                                                \
        a2 = (uint32_t)__smlatt((int32_t)se, (int32_t)we, (int32_t)a2);                                                \
        a1 = (uint32_t)aot_smlabb(so, wo, (int32_t)a1);                                                                \
        a3 = (uint32_t)__smlatt((int32_t)so, (int32_t)wo, (int32_t)a3);                                                \
    } while (0)
#else
#define AOT_SVDF_STEP_S8(w, s)                                                                                         \
    do {                                                                                                               \
        a0 += (uint32_t)((int32_t)(s)[0] * (w)[0]);                                                                    \
        a1 += (uint32_t)((int32_t)(s)[1] * (w)[1]);                                                                    \
        a2 += (uint32_t)((int32_t)(s)[2] * (w)[2]);                                                                    \
        a3 += (uint32_t)((int32_t)(s)[3] * (w)[3]);                                                                    \
    } while (0)
#endif

static inline void aot_svdf_time4_s8(const int8_t* w, const int8_t* s, int32_t count, int32_t filters, uint32_t* a)
{
    /* Sums in locals: the int8 state may alias anything, so sums kept in a[] would be stored every step. */
    uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    const int8_t* const wend = w + count * filters;
    if (count & 1) {
        AOT_SVDF_STEP_S8(w, s);
        s += filters;
        w += filters;
    }
    while (w != wend) {
        AOT_SVDF_STEP_S8(w, s);
        AOT_SVDF_STEP_S8(w + filters, s + filters);
        s += 2 * filters;
        w += 2 * filters;
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}

static inline void aot_svdf_time4_s16(const int16_t* w, const int16_t* s, int32_t count, int32_t filters, uint32_t* a)
{
    uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    int32_t m;
    for (m = 0; m < count; m++) {
#if defined(__ARM_FEATURE_DSP)
        const uint32_t s01 = aot_read32((const int8_t*)s), w01 = aot_read32((const int8_t*)w);
        const uint32_t s23 = aot_read32((const int8_t*)(s + 2)), w23 = aot_read32((const int8_t*)(w + 2));
        a0 = (uint32_t)aot_smlabb(s01, w01, (int32_t)a0);
        a1 = (uint32_t)__smlatt((int32_t)s01, (int32_t)w01, (int32_t)a1);
        a2 = (uint32_t)aot_smlabb(s23, w23, (int32_t)a2);
        a3 = (uint32_t)__smlatt((int32_t)s23, (int32_t)w23, (int32_t)a3);
#else
        a0 += (uint32_t)((int32_t)s[0] * w[0]);
        a1 += (uint32_t)((int32_t)s[1] * w[1]);
        a2 += (uint32_t)((int32_t)s[2] * w[2]);
        a3 += (uint32_t)((int32_t)s[3] * w[3]);
#endif
        s += filters;
        w += filters;
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
}

/* Four rescalings out of line, each with the layer's constants in registers and one test of the shift's sign for
 * all four (inline in the filter loop they competed with its pointers and sums for registers). The values are
 * read before any store: an int8 destination may alias them. */
#define AOT_SVDF_RQ4(v, q, OUT)                                                                                        \
    do {                                                                                                               \
        const int32_t v0_ = (v)[0], v1_ = (v)[1], v2_ = (v)[2], v3_ = (v)[3];                                          \
        const int32_t m_ = (q)->mult;                                                                                  \
        if ((q)->right >= 0) {                                                                                         \
            const uint32_t c_lo_ = (q)->c_lo;                                                                          \
            const int32_t c_hi_ = (q)->c_hi, right_ = (q)->right;                                                      \
            OUT(0, aot_rq_right(v0_, m_, c_lo_, c_hi_, right_));                                                       \
            OUT(1, aot_rq_right(v1_, m_, c_lo_, c_hi_, right_));                                                       \
            OUT(2, aot_rq_right(v2_, m_, c_lo_, c_hi_, right_));                                                       \
            OUT(3, aot_rq_right(v3_, m_, c_lo_, c_hi_, right_));                                                       \
        } else {                                                                                                       \
            const int32_t left_ = (q)->left;                                                                           \
            OUT(0, aot_rq_left(v0_, m_, left_));                                                                       \
            OUT(1, aot_rq_left(v1_, m_, left_));                                                                       \
            OUT(2, aot_rq_left(v2_, m_, left_));                                                                       \
            OUT(3, aot_rq_left(v3_, m_, left_));                                                                       \
        }                                                                                                              \
    } while (0)

/* Four filters' projections into their newest state steps: zero point added after the clamp, stored in T. */
#define AOT_SVDF_NEWEST16(j, x) dst[j] = (int16_t)(zp + aot_sat16(x))
#define AOT_SVDF_NEWEST8(j, x)  dst[j] = (int8_t)(zp + aot_sat8(x))
AOT_NOINLINE void aot_svdf_newest4_s16(const int32_t* acc, const struct aot_rq* q, int32_t zp, int16_t* dst)
{
    AOT_SVDF_RQ4(acc, q, AOT_SVDF_NEWEST16);
}

AOT_NOINLINE void aot_svdf_newest4_s8(const int32_t* acc, const struct aot_rq* q, int32_t zp, int8_t* dst)
{
    AOT_SVDF_RQ4(acc, q, AOT_SVDF_NEWEST8);
}

/* Four units' outputs (rank 1): sums with their biases, rescaled, zero point added, saturated. */
#define AOT_SVDF_OUT8(j, x) dst[j] = (int8_t)aot_sat8((x) + zp)
AOT_NOINLINE void aot_svdf_out4(const int32_t* sum, const struct aot_rq* q, int32_t zp, int8_t* dst)
{
    AOT_SVDF_RQ4(sum, q, AOT_SVDF_OUT8);
}

/* One group of four filters: feature products, newest steps, time products (sums into a[]). Out of line, so that
 * its loops get the registers the layer loop would otherwise keep for itself (and spill around them). */
#define AOT_SVDF_DEFINE_GROUP4(NAME, RUN, T, TIME4, NEWEST4)                                                           \
    struct RUN {                                                                                                       \
        const int8_t* in;                                                                                              \
        const uint32_t* xbuf;                                                                                          \
        int32_t n, corr, filters, szp;                                                                                 \
        const int32_t* feature_bias;                                                                                   \
        const int32_t* time_bias;                                                                                      \
        const T* w_first;                                                                                              \
        const T* s_first;                                                                                              \
        const T* w_second;                                                                                             \
        const T* s_second;                                                                                             \
        int32_t first_run, second_run;                                                                                 \
        T* newest;                                                                                                     \
        const struct aot_rq* qf;                                                                                       \
    };                                                                                                                 \
    AOT_NOINLINE const int8_t* NAME(const struct RUN* p, int32_t f, const int8_t* wf, uint32_t* a)                     \
    {                                                                                                                  \
        int32_t acc[4];                                                                                                \
        const int32_t* fb = p->feature_bias + f;                                                                       \
        const int32_t* tb = p->time_bias + f;                                                                          \
        acc[0] = fb[0] - p->corr;                                                                                      \
        acc[1] = fb[1] - p->corr;                                                                                      \
        acc[2] = fb[2] - p->corr;                                                                                      \
        acc[3] = fb[3] - p->corr;                                                                                      \
        wf = aot_dot4_group_raw(p->xbuf, p->in, wf, p->n, acc);                                                        \
        NEWEST4(acc, p->qf, p->szp, p->newest + f);                                                                    \
        a[0] = (uint32_t)tb[0];                                                                                        \
        a[1] = (uint32_t)tb[1];                                                                                        \
        a[2] = (uint32_t)tb[2];                                                                                        \
        a[3] = (uint32_t)tb[3];                                                                                        \
        TIME4(p->w_first + f, p->s_first + f, p->first_run, p->filters, a);                                            \
        TIME4(p->w_second + f, p->s_second + f, p->second_run, p->filters, a);                                         \
        return wf;                                                                                                     \
    }

AOT_SVDF_DEFINE_GROUP4(aot_svdf_group4_s16, aot_svdf_run_s16, int16_t, aot_svdf_time4_s16, aot_svdf_newest4_s16)
AOT_SVDF_DEFINE_GROUP4(aot_svdf_group4_s8, aot_svdf_run_s8, int8_t, aot_svdf_time4_s8, aot_svdf_newest4_s8)

/* One filter's time products (the filters % 4 last ones). */
#define AOT_SVDF_TIME1(T, w, s, count, filters, acc)                                                                   \
    do {                                                                                                               \
        const T* ws_ = (w);                                                                                            \
        const T* ss_ = (s);                                                                                            \
        int32_t m_;                                                                                                    \
        for (m_ = 0; m_ < (count); m_++) {                                                                             \
            (acc) += (uint32_t)((int32_t)*ss_ * *ws_);                                                                 \
            ss_ += (filters);                                                                                          \
            ws_ += (filters);                                                                                          \
        }                                                                                                              \
    } while (0)

/* The zero point is added after the clamp, unclamped, as the reference does; the sum is then stored in T (modulo
 * 2^bits, as a two's complement conversion). Step `slot` is written; the oldest is then at `oldest`, so time weight
 * m pairs with slot (oldest + m) mod memory: two runs of slots. A filter's time products need only its own state
 * row, so each group of four filters goes feature product, newest step, time products, output in one pass, its sums
 * in registers. Each filter's sum joins its unit's in filter order; a unit's output is written once its rank
 * filters are in (rank 1, the usual case, without the bookkeeping). */
#define AOT_SVDF_S8_BODY(T, SAT, GROUP4, RUN)                                                                          \
    const int32_t filters = shape->num_filters, memory = shape->memory_size, rank = shape->rank;                       \
    const int32_t slot = *position, oldest = slot + 1 == memory ? 0 : slot + 1;                                        \
    const int32_t first_run = memory - oldest, n = shape->input_size;                                                  \
    const struct aot_rq qf = aot_rq_prepare(params->feature_mult, params->feature_shift);                              \
    const struct aot_rq qo = aot_rq_prepare(params->output_mult, params->output_shift);                                \
    const int32_t szp = params->state_zero_point, ozp = params->output_zero_point;                                     \
    int32_t b, f, r;                                                                                                   \
    for (b = 0; b < shape->batches; b++) {                                                                             \
        const int8_t* in = input + b * n;                                                                              \
        T* const st = state + b * filters * memory;                                                                    \
        T* const newest = st + slot * filters;                                                                         \
        const T* const old = st + oldest * filters;                                                                    \
        const T* const w_second = weights_time + first_run * filters;                                                  \
        int8_t* out = output + b * (filters / rank);                                                                   \
        const int8_t* wf = weights_feature;                                                                            \
        const int32_t corr = aot_expand_quads_raw(in, n, xbuf);                                                        \
        struct RUN run;                                                                                                \
        const int32_t* ub = bias;                                                                                      \
        uint32_t unit = 0u;                                                                                            \
        int32_t in_unit = 0;                                                                                           \
        run.in = in;                                                                                                   \
        run.xbuf = xbuf;                                                                                               \
        run.n = n;                                                                                                     \
        run.corr = corr;                                                                                               \
        run.filters = filters;                                                                                         \
        run.szp = szp;                                                                                                 \
        run.feature_bias = feature_bias;                                                                               \
        run.time_bias = time_bias;                                                                                     \
        run.w_first = weights_time;                                                                                    \
        run.s_first = old;                                                                                             \
        run.w_second = w_second;                                                                                       \
        run.s_second = st;                                                                                             \
        run.first_run = first_run;                                                                                     \
        run.second_run = oldest;                                                                                       \
        run.newest = newest;                                                                                           \
        run.qf = &qf;                                                                                                  \
        for (f = 0; f < filters; f += 4) {                                                                             \
            const int32_t group = filters - f < 4 ? filters - f : 4;                                                   \
            uint32_t a[4];                                                                                             \
            if (group == 4) {                                                                                          \
                wf = GROUP4(&run, f, wf, a);                                                                           \
            } else {                                                                                                   \
                for (r = 0; r < group; r++) {                                                                          \
                    const int32_t acc = aot_dot1_raw(xbuf, in, wf + r * n, n, feature_bias[f + r] - corr);             \
                    newest[f + r] = (T)(szp + SAT(aot_rq(acc, &qf)));                                                  \
                    a[r] = (uint32_t)time_bias[f + r];                                                                 \
                    AOT_SVDF_TIME1(T, weights_time + f + r, old + f + r, first_run, filters, a[r]);                    \
                    AOT_SVDF_TIME1(T, w_second + f + r, st + f + r, oldest, filters, a[r]);                            \
                }                                                                                                      \
            }                                                                                                          \
            if (rank == 1 && group == 4) {                                                                             \
                int32_t sum[4];                                                                                        \
                for (r = 0; r < 4; r++) {                                                                              \
                    sum[r] = (int32_t)((uint32_t)ub[r] + a[r]);                                                        \
                }                                                                                                      \
                aot_svdf_out4(sum, &qo, ozp, out);                                                                     \
                out += 4;                                                                                              \
                ub += 4;                                                                                               \
            } else {                                                                                                   \
                for (r = 0; r < group; r++) {                                                                          \
                    unit += a[r];                                                                                      \
                    if (++in_unit == rank) {                                                                           \
                        *out++ = (int8_t)aot_sat8(aot_rq((int32_t)((uint32_t)*ub++ + unit), &qo) + ozp);               \
                        in_unit = 0;                                                                                   \
                        unit = 0u;                                                                                     \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
    *position = oldest;

void aot_svdf_s8_s16(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                     const int16_t* weights_time, const int32_t* time_bias, const int32_t* bias, int16_t* state,
                     int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                     const struct aot_svdf_s8_params* params, uint32_t* xbuf)
{
    AOT_SVDF_S8_BODY(int16_t, aot_sat16, aot_svdf_group4_s16, aot_svdf_run_s16)
}

void aot_svdf_s8_s8(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                    const int8_t* weights_time, const int32_t* time_bias, const int32_t* bias, int8_t* state,
                    int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                    const struct aot_svdf_s8_params* params, uint32_t* xbuf)
{
    AOT_SVDF_S8_BODY(int8_t, aot_sat8, aot_svdf_group4_s8, aot_svdf_run_s8)
}
