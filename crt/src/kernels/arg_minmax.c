/* ARG_MAX / ARG_MIN (aot/kernels/arg_minmax.h). */
#include "aot_sched.h"

#include "aot/kernels/arg_minmax.h"

#define AOT_ARG_MINMAX(suffix, T)                                                                                      \
    void aot_arg_minmax_##suffix(const T* input, int32_t* output, int32_t outer, int32_t axis_size, int32_t inner,     \
                                 int32_t is_max)                                                                       \
    {                                                                                                                  \
        int32_t o, i, k;                                                                                               \
        for (o = 0; o < outer; o++) {                                                                                  \
            for (i = 0; i < inner; i++) {                                                                              \
                const T* p = input + o * axis_size * inner + i;                                                        \
                T best = p[0];                                                                                         \
                int32_t at = 0;                                                                                        \
                for (k = 1; k < axis_size; k++) {                                                                      \
                    const T v = p[k * inner];                                                                          \
                    if (is_max ? v > best : v < best) {                                                                \
                        best = v;                                                                                      \
                        at = k;                                                                                        \
                    }                                                                                                  \
                }                                                                                                      \
                output[o * inner + i] = at;                                                                            \
            }                                                                                                          \
        }                                                                                                              \
    }

AOT_ARG_MINMAX(f32, float)
AOT_ARG_MINMAX(s8, int8_t)
