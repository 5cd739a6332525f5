/* The 4-D broadcast walk of two-operand element-wise kernels (compare.c, squared_difference.c): dims[4] is the
 * output shape, s1 / s2 each operand's element stride per output dimension (0 where it broadcasts). */
#ifndef AOT_KERNELS_BROADCAST2_H_
#define AOT_KERNELS_BROADCAST2_H_

/* Walks the 4-D output, calling BODY with a and b the input element offsets and o the output index. */
#define AOT_BROADCAST_2(dims, s1, s2, BODY)                                                                            \
    do {                                                                                                               \
        int32_t i0, i1, i2, i3, o = 0;                                                                                 \
        for (i0 = 0; i0 < (dims)[0]; i0++) {                                                                           \
            for (i1 = 0; i1 < (dims)[1]; i1++) {                                                                       \
                for (i2 = 0; i2 < (dims)[2]; i2++) {                                                                   \
                    const int32_t a0 = i0 * (s1)[0] + i1 * (s1)[1] + i2 * (s1)[2];                                     \
                    const int32_t b0 = i0 * (s2)[0] + i1 * (s2)[1] + i2 * (s2)[2];                                     \
                    for (i3 = 0; i3 < (dims)[3]; i3++) {                                                               \
                        const int32_t a = a0 + i3 * (s1)[3];                                                           \
                        const int32_t b = b0 + i3 * (s2)[3];                                                           \
                        BODY;                                                                                          \
                        o++;                                                                                           \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

#endif
