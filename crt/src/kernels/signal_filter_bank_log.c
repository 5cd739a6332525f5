/* SignalFilterBankLog: scaled natural logarithm of uint32 filter bank channels, saturated to int16.
 *
 * log2(x) = e + f with e the index of x's top bit and f the following 16 bits of mantissa, corrected by the
 * table's log2(1 + f) - f interpolated between 128 segments; ln = log2 * ln(2) (45426 / 65536), rounded; then
 * times the output scale in 1/65536, rounded.  All in 32 bits: the products that exceed 32 bits are split into
 * their 16-bit halves, which gives the same result as a 64-bit product. */
#include "aot_sched.h"

#include "aot/kernels/signal.h"

#define AOT_LOG_SCALE_BITS   16
#define AOT_LOG_SEGMENT_BITS 7
#define AOT_LN2_Q16          45426u

static int32_t top_bit(uint32_t x) /* 1-based index of the highest set bit; x != 0 */
{
    int32_t n = 0;
    while (x != 0u) {
        x >>= 1;
        ++n;
    }
    return n;
}

static uint32_t mul_q16_round(uint32_t a, uint32_t b) /* (a * b + 2^15) >> 16 for a < 2^16, any b */
{
    const uint32_t hi = a * (b >> 16);
    const uint32_t lo = a * (b & 0xFFFFu) + 0x8000u;
    return hi + (lo >> 16);
}

static uint32_t log_scaled(uint32_t x, uint32_t scale, const uint16_t* table)
{
    const int32_t e = top_bit(x) - 1;
    int32_t frac = (int32_t)(x - (1u << e)); /* < 2^31 */
    int32_t seg, c0, c1, rel;
    uint32_t log2v, ln;
    if (e < AOT_LOG_SCALE_BITS) {
        frac = (int32_t)((uint32_t)frac << (AOT_LOG_SCALE_BITS - e));
    } else {
        frac >>= e - AOT_LOG_SCALE_BITS;
    }
    seg = frac >> (AOT_LOG_SCALE_BITS - AOT_LOG_SEGMENT_BITS);
    c0 = table[seg];
    c1 = table[seg + 1];
    /* (c1 - c0) may be negative: floor division by 2^16, written without shifting a negative value. */
    rel = (c1 - c0) * (frac - (seg << (AOT_LOG_SCALE_BITS - AOT_LOG_SEGMENT_BITS)));
    rel = rel >= 0 ? rel >> AOT_LOG_SCALE_BITS : -(int32_t)(((uint32_t)(-rel) + 0xFFFFu) >> AOT_LOG_SCALE_BITS);
    log2v = ((uint32_t)e << AOT_LOG_SCALE_BITS) + (uint32_t)(frac + c0 + rel);
    ln = mul_q16_round(AOT_LN2_Q16, log2v);
    /* scale * ln wraps in 32 bits as TFLite Micro's uint32 product does. */
    return (scale * ln + 0x8000u) >> AOT_LOG_SCALE_BITS;
}

void aot_signal_filter_bank_log(const uint32_t* input, int16_t* output, int32_t size, int32_t correction_bits,
                                int32_t scale, const uint16_t* log2_table)
{
    int32_t i;
    for (i = 0; i < size; ++i) {
        const uint32_t x = input[i] << correction_bits;
        if (x > 1u) {
            const uint32_t v = log_scaled(x, (uint32_t)scale, log2_table);
            output[i] = (int16_t)(v < (uint32_t)INT16_MAX ? v : (uint32_t)INT16_MAX);
        } else {
            output[i] = 0;
        }
    }
}
