/* int8 SVDF with an int16 or int8 state, bit-exact with TFLite Micro's reference integer kernel.
 *
 * The two variants differ only in the element type of the time weights and the state, so one body is written as a
 * macro over that type. Sums of time products use wrapping 32-bit arithmetic (unsigned in C): int16 x int16
 * products summed over the memory may exceed int32, where the reference wraps on every machine it runs on, and
 * signed overflow would be undefined behaviour here.
 *
 * Zero points are folded by the compiler into per-filter constants (-zero point x row sum): feature_bias for the
 * input's, time_bias for the state's, so the products are plain dot products (the feature one four filters per
 * pass over the input). The state rows are rings (see aot/kernels/svdf.h): the newest step overwrites the oldest.
 */
#include "aot/kernels/svdf.h"
#include "aot/requant.h"
#include "dot_rows_s8.h"

static int32_t aot_svdf_clamp(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* A filter's projection of the input, rescaled into the state's quantization and clamped to its type. */
static int32_t aot_svdf_rescale(int32_t acc, const struct aot_svdf_s8_params* p, int32_t lo, int32_t hi)
{
    return aot_svdf_clamp(aot_multiply_by_quantized_multiplier(acc, p->feature_mult, p->feature_shift), lo, hi);
}

/* The zero point is added after the clamp, unclamped, as the reference does; the sum is then stored in T (modulo
 * 2^bits, as a two's complement conversion). Ring rows: step `slot` is written, the oldest is then at `oldest`, so
 * time weight m pairs with ring element (oldest + m) mod memory: two runs. */
#define AOT_SVDF_S8_BODY(T, LO, HI)                                                                                    \
    const int32_t filters = shape->num_filters, memory = shape->memory_size, rank = shape->rank;                       \
    const int32_t units = filters / rank, slot = *position, oldest = slot + 1 == memory ? 0 : slot + 1;                \
    const int32_t first_run = memory - oldest;                                                                         \
    int32_t b, f, u, r, m;                                                                                             \
    for (b = 0; b < shape->batches; b++) {                                                                             \
        const int8_t* in = input + b * shape->input_size;                                                              \
        T* st = state + b * filters * memory + slot;                                                                   \
        for (f = 0; f + 4 <= filters; f += 4) {                                                                        \
            int32_t acc[4];                                                                                            \
            for (r = 0; r < 4; r++) {                                                                                  \
                acc[r] = feature_bias[f + r];                                                                          \
            }                                                                                                          \
            aot_dot4_rows_s8(in, weights_feature + f * shape->input_size, shape->input_size, acc);                     \
            for (r = 0; r < 4; r++) {                                                                                  \
                st[(f + r) * memory] = (T)(params->state_zero_point + aot_svdf_rescale(acc[r], params, LO, HI));       \
            }                                                                                                          \
        }                                                                                                              \
        for (; f < filters; f++) {                                                                                     \
            const int32_t acc =                                                                                        \
                aot_dot1_s8(in, weights_feature + f * shape->input_size, shape->input_size, 0, feature_bias[f]);       \
            st[f * memory] = (T)(params->state_zero_point + aot_svdf_rescale(acc, params, LO, HI));                    \
        }                                                                                                              \
        st -= slot;                                                                                                    \
        for (u = 0; u < units; u++) {                                                                                  \
            uint32_t acc = (uint32_t)bias[u];                                                                          \
            int32_t out;                                                                                               \
            for (r = 0; r < rank; r++) {                                                                               \
                const int32_t row = u * rank + r;                                                                      \
                const T* w = weights_time + row * memory;                                                              \
                const T* s = st + row * memory;                                                                        \
                acc += (uint32_t)time_bias[row];                                                                       \
                for (m = 0; m < first_run; m++) {                                                                      \
                    acc += (uint32_t)(int32_t)w[m] * (uint32_t)(int32_t)s[oldest + m];                                 \
                }                                                                                                      \
                for (; m < memory; m++) {                                                                              \
                    acc += (uint32_t)(int32_t)w[m] * (uint32_t)(int32_t)s[m - first_run];                              \
                }                                                                                                      \
            }                                                                                                          \
            out = aot_multiply_by_quantized_multiplier((int32_t)acc, params->output_mult, params->output_shift);       \
            output[b * units + u] = (int8_t)aot_svdf_clamp(out + params->output_zero_point, -128, 127);                \
        }                                                                                                              \
    }                                                                                                                  \
    *position = oldest;

void aot_svdf_s8_s16(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                     const int16_t* weights_time, const int32_t* time_bias, const int32_t* bias, int16_t* state,
                     int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                     const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int16_t, -32768, 32767)
}

void aot_svdf_s8_s8(const int8_t* input, const int8_t* weights_feature, const int32_t* feature_bias,
                    const int8_t* weights_time, const int32_t* time_bias, const int32_t* bias, int8_t* state,
                    int32_t* position, int8_t* output, const struct aot_svdf_shape* shape,
                    const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int8_t, -128, 127)
}
