/* SignalFilterBankSquareRoot: integer square root of 64-bit filter bank channels, shifted down.
 *
 * The root is computed bit by bit from the highest even power of two at or below the value, then rounded up when
 * the remainder exceeds the root (unless that would leave the result's range).  Values below 2^32 use the 32-bit
 * form, whose result saturates at 65535, as TFLite Micro's does. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

static int32_t top_bit64(uint64_t x) /* 1-based index of the highest set bit; 0 for 0 */
{
    int32_t n = 0;
    while (x != 0u) {
        x >>= 1;
        ++n;
    }
    return n;
}

static uint64_t root(uint64_t num, int32_t width, uint64_t res_max)
{
    uint64_t res = 0u;
    const int32_t start = (width - 1) - ((width - top_bit64(num)) | 1); /* even bit position to start from */
    uint64_t bit = (uint64_t)1u << start;
    int32_t iterations = start / 2 + 1;
    while (iterations-- > 0) {
        if (num >= res + bit) {
            num -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != res_max) {
        ++res;
    }
    return res;
}

void aot_signal_filter_bank_sqrt(const uint32_t* input_words, const int32_t* scale_bits, uint32_t* output, int32_t size)
{
    const int32_t shift = *scale_bits;
    int32_t i;
    for (i = 0; i < size; ++i) {
        const uint64_t x = ((uint64_t)input_words[2 * i + 1] << 32) | input_words[2 * i];
        uint32_t r;
        if (x == 0u) {
            r = 0u;
        } else if ((x >> 32) == 0u) {
            r = (uint32_t)(uint16_t)root(x, 32, 0xFFFFu);
        } else {
            r = (uint32_t)root(x, 64, 0xFFFFFFFFu);
        }
        output[i] = (shift >= 0 && shift < 32) ? r >> shift : 0u;
    }
}
