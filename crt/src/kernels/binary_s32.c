/* int32 element-wise binary operations with broadcasting (wrap-around arithmetic, truncating division). */
#include "aot_sched.h"

#include "aot/kernels/binary.h"

/* uint32 -> int32 without implementation-defined conversions. */
static int32_t to_s32(uint32_t u)
{
    return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(0xFFFFFFFFu - u) - 1;
}

static int32_t apply(int32_t op, int32_t a, int32_t b)
{
    switch (op) {
    case AOT_BINARY_ADD:
        return to_s32((uint32_t)a + (uint32_t)b);
    case AOT_BINARY_SUB:
        return to_s32((uint32_t)a - (uint32_t)b);
    case AOT_BINARY_MUL:
        return to_s32((uint32_t)a * (uint32_t)b);
    case AOT_BINARY_DIV:
        if (b == 0) {
            return 0;
        }
        if (b == -1) {
            return to_s32(0u - (uint32_t)a);
        }
        return a / b;
    case AOT_BINARY_MIN:
        return a < b ? a : b;
    case AOT_BINARY_MAX:
        return a > b ? a : b;
    default:
        return a >= 0 ? a : to_s32((uint32_t)a * (uint32_t)b);
    }
}

void aot_binary_s32(int32_t op, const int32_t* in1, const int32_t* in2, int32_t* output, const int32_t* dims,
                    const int32_t* in1_strides, const int32_t* in2_strides)
{
    int32_t i0, i1, i2, i3;
    int32_t o = 0;
    for (i0 = 0; i0 < dims[0]; i0++) {
        for (i1 = 0; i1 < dims[1]; i1++) {
            for (i2 = 0; i2 < dims[2]; i2++) {
                const int32_t* a = in1 + i0 * in1_strides[0] + i1 * in1_strides[1] + i2 * in1_strides[2];
                const int32_t* b = in2 + i0 * in2_strides[0] + i1 * in2_strides[1] + i2 * in2_strides[2];
                for (i3 = 0; i3 < dims[3]; i3++) {
                    output[o++] = apply(op, a[i3 * in1_strides[3]], b[i3 * in2_strides[3]]);
                }
            }
        }
    }
}
