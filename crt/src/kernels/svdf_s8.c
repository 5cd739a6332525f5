/* int8 SVDF with an int16 or int8 state, bit-exact with TFLite Micro's reference integer kernel.
 *
 * The two variants differ only in the element type of the time weights and the state, so one body is written as a
 * macro over that type. Sums of time products use wrapping 32-bit arithmetic (unsigned in C): int16 x int16
 * products summed over the memory may exceed int32, where the reference wraps on every machine it runs on, and
 * signed overflow would be undefined behaviour here. SMLAD wraps the same way, so on DSP cores the time products
 * go two per instruction.
 *
 * Zero points are folded by the compiler into per-filter constants (-zero point x row sum): feature_bias for the
 * input's, time_bias for the state's, so the products are plain dot products (the feature one four filters per
 * pass over the input). The state rows are rings (see aot/kernels/svdf.h): the newest step overwrites the oldest.
 * Requantization is inline (requant_exact.h): one per filter and one per unit.
 */
#include "aot/kernels/svdf.h"
#include "dot_rows_s8.h"
#include "requant_exact.h"

/* acc + sum a[k] b[k] over k < n, modulo 2^32. */
static inline uint32_t aot_svdf_dot_s8(const int8_t* a, const int8_t* b, int32_t n, uint32_t acc)
{
    int32_t k = 0;
#if defined(__ARM_FEATURE_DSP)
    for (; k + 4 <= n; k += 4) {
        const uint32_t wa = aot_read32(a + k), wb = aot_read32(b + k);
        acc = (uint32_t)aot_smlad(aot_sxtb16(wa), aot_sxtb16(wb), (int32_t)acc);
        acc = (uint32_t)aot_smlad(aot_sxtb16_ror8(wa), aot_sxtb16_ror8(wb), (int32_t)acc);
    }
#endif
    for (; k < n; k++) {
        acc += (uint32_t)((int32_t)a[k] * b[k]);
    }
    return acc;
}

static inline uint32_t aot_svdf_dot_s16(const int16_t* a, const int16_t* b, int32_t n, uint32_t acc)
{
    int32_t k = 0;
#if defined(__ARM_FEATURE_DSP)
    for (; k + 2 <= n; k += 2) {
        acc = (uint32_t)aot_smlad(aot_read32((const int8_t*)(a + k)), aot_read32((const int8_t*)(b + k)),
                                  (int32_t)acc);
    }
#endif
    for (; k < n; k++) {
        acc += (uint32_t)((int32_t)a[k] * b[k]);
    }
    return acc;
}

/* The zero point is added after the clamp, unclamped, as the reference does; the sum is then stored in T (modulo
 * 2^bits, as a two's complement conversion). Ring rows: step `slot` is written, the oldest is then at `oldest`, so
 * time weight m pairs with ring element (oldest + m) mod memory: two runs. */
#define AOT_SVDF_S8_BODY(T, SAT, DOT)                                                                             \
    const int32_t filters = shape->num_filters, memory = shape->memory_size, rank = shape->rank;                   \
    const int32_t units = filters / rank, slot = *position, oldest = slot + 1 == memory ? 0 : slot + 1;           \
    const int32_t first_run = memory - oldest, n = shape->input_size;                                              \
    const struct aot_rq qf = aot_rq_prepare(params->feature_mult, params->feature_shift);                         \
    const struct aot_rq qo = aot_rq_prepare(params->output_mult, params->output_shift);                           \
    const int32_t szp = params->state_zero_point, ozp = params->output_zero_point;                                \
    int32_t b, f, u, r;                                                                                            \
    for (b = 0; b < shape->batches; b++) {                                                                         \
        const int8_t* in = input + b * n;                                                                          \
        T* st = state + b * filters * memory + slot;                                                               \
        for (f = 0; f + 4 <= filters; f += 4) {                                                                    \
            int32_t acc[4];                                                                                        \
            for (r = 0; r < 4; r++) {                                                                              \
                acc[r] = feature_bias[f + r];                                                                      \
            }                                                                                                      \
            aot_dot4_rows_s8(in, weights_feature + f * n, n, acc);                                                 \
            for (r = 0; r < 4; r++) {                                                                              \
                st[(f + r) * memory] = (T)(szp + SAT(aot_rq(acc[r], &qf)));                                        \
            }                                                                                                      \
        }                                                                                                          \
        for (; f < filters; f++) {                                                                                 \
            const int32_t acc = aot_dot1_s8(in, weights_feature + f * n, n, 0, feature_bias[f]);                  \
            st[f * memory] = (T)(szp + SAT(aot_rq(acc, &qf)));                                                     \
        }                                                                                                          \
        st -= slot;                                                                                                \
        for (u = 0; u < units; u++) {                                                                              \
            uint32_t acc = (uint32_t)bias[u];                                                                      \
            for (r = 0; r < rank; r++) {                                                                           \
                const int32_t row = u * rank + r;                                                                  \
                const T* w = weights_time + row * memory;                                                          \
                const T* s = st + row * memory;                                                                    \
                acc += (uint32_t)time_bias[row];                                                                   \
                acc = DOT(w, s + oldest, first_run, acc);                                                          \
                acc = DOT(w + first_run, s, oldest, acc);                                                          \
            }                                                                                                      \
            output[b * units + u] = (int8_t)aot_sat8(aot_rq((int32_t)acc, &qo) + ozp);                             \
        }                                                                                                          \
    }                                                                                                              \
    *position = oldest;

void aot_svdf_s8_s16(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                     const int16_t* weights_time, const int32_t* time_bias, const int32_t* bias, int16_t* state,
                     int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                     const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int16_t, aot_sat16, aot_svdf_dot_s16)
}

void aot_svdf_s8_s8(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                    const int8_t* weights_time, const int32_t* time_bias, const int32_t* bias, int8_t* state,
                    int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                    const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int8_t, aot_sat8, aot_svdf_dot_s8)
}
