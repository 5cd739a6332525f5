/* Reflect / edge / wrap / symmetric padding (reference loop over the output, element-size generic). */
#include "aot_sched.h"

#include "aot/kernels/pad_mode.h"

static int32_t positive_mod(int32_t a, int32_t m)
{
    const int32_t r = a % m;
    return r < 0 ? r + m : r;
}

static int32_t source_index(int32_t i, int32_t n, int32_t mode)
{
    if (i >= 0 && i < n) {
        return i;
    }
    if (mode == AOT_PAD_EDGE || n == 1) {
        return i < 0 ? 0 : n - 1;
    }
    if (mode == AOT_PAD_WRAP) {
        return positive_mod(i, n);
    }
    if (mode == AOT_PAD_SYMMETRIC) {
        i = positive_mod(i, 2 * n);
        return i < n ? i : 2 * n - 1 - i;
    }
    i = positive_mod(i, 2 * (n - 1));
    return i < n ? i : 2 * (n - 1) - i;
}

void aot_pad_mode(const void* input, void* output, int32_t element_size, const int32_t* in_dims,
                  const int32_t* out_dims, const int32_t* pad_before, int32_t mode)
{
    const uint8_t* in = (const uint8_t*)input;
    uint8_t* out = (uint8_t*)output;
    int32_t o0, o1, o2, o3, k;
    for (o0 = 0; o0 < out_dims[0]; o0++) {
        const int32_t i0 = source_index(o0 - pad_before[0], in_dims[0], mode);
        for (o1 = 0; o1 < out_dims[1]; o1++) {
            const int32_t i1 = source_index(o1 - pad_before[1], in_dims[1], mode);
            for (o2 = 0; o2 < out_dims[2]; o2++) {
                const int32_t i2 = source_index(o2 - pad_before[2], in_dims[2], mode);
                const int32_t row = ((i0 * in_dims[1] + i1) * in_dims[2] + i2) * in_dims[3];
                for (o3 = 0; o3 < out_dims[3]; o3++) {
                    const uint8_t* src = in + (row + source_index(o3 - pad_before[3], in_dims[3], mode)) * element_size;
                    for (k = 0; k < element_size; k++) {
                        *out++ = src[k];
                    }
                }
            }
        }
    }
}
