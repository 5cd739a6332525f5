/* int8 SVDF with an int16 or int8 state, bit-exact with TFLite Micro's reference integer kernel.
 *
 * The two variants differ only in the element type of the time weights and the state, so one body is written as a
 * macro over that type. Sums of time products use wrapping 32-bit arithmetic (unsigned in C): int16 x int16
 * products summed over the memory may exceed int32, where the reference wraps on every machine it runs on, and
 * signed overflow would be undefined behaviour here.
 */
#include <string.h>

#include "aot/kernels/svdf.h"
#include "aot/requant.h"

static int32_t aot_svdf_clamp(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* One filter's projection of the input, rescaled into the state's quantization and clamped to its type. */
static int32_t aot_svdf_project(const int8_t* in, const int8_t* w, int32_t n, const struct aot_svdf_s8_params* p,
                                int32_t lo, int32_t hi)
{
    int32_t acc = 0;
    int32_t c;
    for (c = 0; c < n; c++) {
        acc += (int32_t)w[c] * ((int32_t)in[c] + p->input_offset);
    }
    acc = aot_multiply_by_quantized_multiplier(acc, p->feature_mult, p->feature_shift);
    return aot_svdf_clamp(acc, lo, hi);
}

#define AOT_SVDF_S8_BODY(T, LO, HI)                                                                               \
    const int32_t filters = shape->num_filters, memory = shape->memory_size, rank = shape->rank;                   \
    const int32_t units = filters / rank, total = shape->batches * filters * memory;                               \
    int32_t b, f, u, r, m;                                                                                         \
    /* Every step moves one element to the left over the whole state; each row's last slot is rewritten below. */ \
    if (total > 1) {                                                                                               \
        memmove(state, state + 1, (size_t)(total - 1) * sizeof(T));                                                \
    }                                                                                                              \
    for (b = 0; b < shape->batches; b++) {                                                                         \
        const int8_t* in = input + b * shape->input_size;                                                          \
        T* st = state + b * filters * memory;                                                                      \
        for (f = 0; f < filters; f++) {                                                                            \
            /* The zero point is added after the clamp, unclamped, as the reference does; the sum is then stored \
             * in T (modulo 2^bits, as a two's complement conversion). */                                          \
            const int32_t v = params->state_zero_point +                                                           \
                aot_svdf_project(in, weights_feature + f * shape->input_size, shape->input_size, params, LO, HI);  \
            st[f * memory + memory - 1] = (T)v;                                                                    \
        }                                                                                                          \
        for (u = 0; u < units; u++) {                                                                              \
            uint32_t acc = (uint32_t)bias[u];                                                                      \
            int32_t out;                                                                                           \
            for (r = 0; r < rank; r++) {                                                                           \
                const int32_t row = u * rank + r;                                                                  \
                const T* w = weights_time + row * memory;                                                          \
                const T* s = st + row * memory;                                                                    \
                for (m = 0; m < memory; m++) {                                                                     \
                    acc += (uint32_t)(int32_t)w[m] * (uint32_t)((int32_t)s[m] - params->state_zero_point);        \
                }                                                                                                  \
            }                                                                                                      \
            out = aot_multiply_by_quantized_multiplier((int32_t)acc, params->output_mult, params->output_shift);   \
            output[b * units + u] = (int8_t)aot_svdf_clamp(out + params->output_zero_point, -128, 127);            \
        }                                                                                                          \
    }

void aot_svdf_s8_s16(const int8_t* input, const int8_t* weights_feature, const int16_t* weights_time,
                     const int32_t* bias, int16_t* state, int8_t* output, const struct aot_svdf_shape* shape,
                     const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int16_t, -32768, 32767)
}

void aot_svdf_s8_s8(const int8_t* input, const int8_t* weights_feature, const int8_t* weights_time,
                    const int32_t* bias, int8_t* state, int8_t* output, const struct aot_svdf_shape* shape,
                    const struct aot_svdf_s8_params* params)
{
    AOT_SVDF_S8_BODY(int8_t, -128, 127)
}
