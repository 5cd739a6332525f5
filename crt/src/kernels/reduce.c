/* SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_PROD over the reduced dimensions (aot/kernels/reduce.h): each output
 * element folds its input values in input order with COMBINE, starting from the first one. */
#include "aot_sched.h"

#include "aot/kernels/reduce.h"

#define AOT_SUM(acc, v)  ((acc) + (v))
#define AOT_MAX(acc, v)  ((v) > (acc) ? (v) : (acc))
#define AOT_MIN(acc, v)  ((v) < (acc) ? (v) : (acc))
#define AOT_ALL(acc, v)  ((acc) && (v))
#define AOT_PROD(acc, v) ((acc) * (v))

#define AOT_REDUCE(name, T, COMBINE)                                                                                   \
    void name(const T* input, T* output, const int32_t* in_dims, const int32_t* reduced)                               \
    {                                                                                                                  \
        int32_t od[4], rd[4];                                                                                          \
        int32_t d, o0, o1, o2, o3, r0, r1, r2, r3;                                                                     \
        int32_t o = 0;                                                                                                 \
        for (d = 0; d < 4; d++) {                                                                                      \
            od[d] = reduced[d] ? 1 : in_dims[d];                                                                       \
            rd[d] = reduced[d] ? in_dims[d] : 1;                                                                       \
        }                                                                                                              \
        for (o0 = 0; o0 < od[0]; o0++) {                                                                               \
            for (o1 = 0; o1 < od[1]; o1++) {                                                                           \
                for (o2 = 0; o2 < od[2]; o2++) {                                                                       \
                    for (o3 = 0; o3 < od[3]; o3++) {                                                                   \
                        T acc = input[((o0 * in_dims[1] + o1) * in_dims[2] + o2) * in_dims[3] + o3];                   \
                        int32_t first = 1;                                                                             \
                        for (r0 = 0; r0 < rd[0]; r0++) {                                                               \
                            for (r1 = 0; r1 < rd[1]; r1++) {                                                           \
                                for (r2 = 0; r2 < rd[2]; r2++) {                                                       \
                                    const int32_t row =                                                                \
                                        (((o0 + r0) * in_dims[1] + (o1 + r1)) * in_dims[2] + (o2 + r2)) * in_dims[3];  \
                                    for (r3 = 0; r3 < rd[3]; r3++) {                                                   \
                                        if (!first) {                                                                  \
                                            acc = (T)COMBINE(acc, input[row + o3 + r3]);                               \
                                        }                                                                              \
                                        first = 0;                                                                     \
                                    }                                                                                  \
                                }                                                                                      \
                            }                                                                                          \
                        }                                                                                              \
                        output[o++] = acc;                                                                             \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }

AOT_REDUCE(aot_sum_f32, float, AOT_SUM)
AOT_REDUCE(aot_reduce_max_f32, float, AOT_MAX)
AOT_REDUCE(aot_reduce_min_f32, float, AOT_MIN)
AOT_REDUCE(aot_reduce_prod_f32, float, AOT_PROD)
AOT_REDUCE(aot_reduce_max_s8, int8_t, AOT_MAX)
AOT_REDUCE(aot_reduce_min_s8, int8_t, AOT_MIN)
AOT_REDUCE(aot_reduce_max_s16, int16_t, AOT_MAX)
AOT_REDUCE(aot_reduce_min_s16, int16_t, AOT_MIN)
AOT_REDUCE(aot_reduce_all_bool, uint8_t, AOT_ALL)
