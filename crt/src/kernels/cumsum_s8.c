/* int8 CUMSUM (aot/kernels/cumsum.h): TFLite Micro's rescaled 32-bit running sum. */
#include "aot_sched.h"

#include "aot/kernels/cumsum.h"
#include "aot/requant.h"

/* Shift left by TFLite Micro's kCumSumIntegerShift before the one-half rescale, so the running sum keeps 19
 * fractional bits. */
#define AOT_CUMSUM_LEFT_SHIFT 20

void aot_cumsum_s8(const int8_t* input, int8_t* output, int32_t outer, int32_t axis_size, int32_t inner,
                   int32_t exclusive, int32_t reverse, const int32_t* q)
{
    const int32_t input_offset = q[0], in_mult = q[1], in_shift = q[2];
    const int32_t out_mult = q[3], out_shift = q[4], output_offset = q[5];
    const int32_t start =
        aot_multiply_by_quantized_multiplier(input_offset * (1 << AOT_CUMSUM_LEFT_SHIFT), in_mult, in_shift);
    int32_t o, i, k;
    for (o = 0; o < outer; o++) {
        for (i = 0; i < inner; i++) {
            int32_t acc = start;
            for (k = 0; k < axis_size; k++) {
                const int32_t at = o * axis_size * inner + (reverse ? axis_size - 1 - k : k) * inner + i;
                const int32_t y = (input_offset + input[at]) * (1 << AOT_CUMSUM_LEFT_SHIFT);
                const int32_t scaled = aot_multiply_by_quantized_multiplier(y, in_mult, in_shift);
                int32_t sum, r;
                if (exclusive) {
                    sum = acc;
                    acc = (int32_t)((uint32_t)acc + (uint32_t)scaled);
                } else {
                    acc = (int32_t)((uint32_t)acc + (uint32_t)scaled);
                    sum = acc;
                }
                r = aot_multiply_by_quantized_multiplier(sum, out_mult, out_shift) + output_offset;
                output[at] = (int8_t)(r < -128 ? -128 : (r > 127 ? 127 : r));
            }
        }
    }
}
