/* int8 MAXIMUM / MINIMUM of two inputs of the output's shape with the DSP extension (aot/kernels/binary.h): four
 * values per word, SSUB8 setting a GE flag in each byte where the first input wins and SEL taking those bytes (the
 * stored values compared, as TFLite Micro does).  The output may be the buffer of either input (each word is read
 * before the same word is written).  Without the extension (a host build) the portable walker runs. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/binary.h"

#if defined(__ARM_FEATURE_DSP)
#include "dsp_s8.h"

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
AOT_HOT_INLINE void
flat(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size, int32_t is_max)
{
    int32_t i = 0;
    for (; i + 8 <= size; i += 8) {
        const uint32_t lo = aot_sel_s8x4(aot_read32(in1 + i), aot_read32(in2 + i), is_max);
        const uint32_t hi = aot_sel_s8x4(aot_read32(in1 + i + 4), aot_read32(in2 + i + 4), is_max);
        memcpy(output + i, &lo, 4);
        memcpy(output + i + 4, &hi, 4);
    }
    for (; i < size; i++) {
        const int8_t x = in1[i], y = in2[i];
        output[i] = (is_max ? x > y : x < y) ? x : y;
    }
}

void aot_minmax_s8_flat_dsp(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size)
{
    if (op == AOT_BINARY_MAX) {
        flat(in1, in2, output, size, 1);
    } else {
        flat(in1, in2, output, size, 0);
    }
}

#else

void aot_minmax_s8_flat_dsp(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size)
{
    const int32_t dims[4] = {1, 1, 1, size}, strides[4] = {0, 0, 0, 1};
    aot_minmax_s8(op, in1, in2, output, dims, strides, strides);
}

#endif
