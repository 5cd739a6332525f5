/* Integer -> integer requantization between int8, int16, int32 and uint8 (QUANTIZE at the boundaries of 16x8 models):
 * the pairs TFLite Micro's QUANTIZE accepts besides int8 -> int8 (quantize_s8_s8.c).  Each is the same loop over
 * aot_qe_requantize's arithmetic with the input and output element types and the output's range; one definition per
 * pair, each its own function so a firmware links only the pairs its models use. The rescaling is the exact inline
 * form of requant_exact.h, its constants prepared once per call (an out-of-line call per element cost more than the
 * arithmetic: the int16 -> int8 QUANTIZE in front of an audio model's first layer). */
#include "aot_sched.h"

#include "aot/kernels/quantize.h"
#include "requant_exact.h"

#define AOT_DEFINE_REQUANTIZE(name, in_t, out_t, lo, hi)                                                               \
    void name(const in_t* input, out_t* output, int32_t size, int32_t input_zero_point, int32_t multiplier,            \
              int32_t shift, int32_t output_zero_point)                                                                \
    {                                                                                                                  \
        const struct aot_rq q = aot_rq_prepare(multiplier, shift);                                                     \
        int32_t i;                                                                                                     \
        for (i = 0; i < size; i++) {                                                                                   \
            /* The subtraction and the zero point's addition wrap as TFLite's int32 arithmetic does in practice. */    \
            const int32_t centred = (int32_t)((uint32_t)input[i] - (uint32_t)input_zero_point);                        \
            const int32_t v = (int32_t)((uint32_t)aot_rq(centred, &q) + (uint32_t)output_zero_point);                  \
            output[i] = (out_t)(v < (lo) ? (lo) : (v > (hi) ? (hi) : v));                                              \
        }                                                                                                              \
    }

AOT_DEFINE_REQUANTIZE(aot_requantize_s16_s8, int16_t, int8_t, -128, 127)
AOT_DEFINE_REQUANTIZE(aot_requantize_s8_s16, int8_t, int16_t, -32768, 32767)
AOT_DEFINE_REQUANTIZE(aot_requantize_s16_s16, int16_t, int16_t, -32768, 32767)
AOT_DEFINE_REQUANTIZE(aot_requantize_s16_s32, int16_t, int32_t, INT32_MIN, INT32_MAX)
AOT_DEFINE_REQUANTIZE(aot_requantize_s32_s16, int32_t, int16_t, -32768, 32767)
AOT_DEFINE_REQUANTIZE(aot_requantize_s8_s32, int8_t, int32_t, INT32_MIN, INT32_MAX)
AOT_DEFINE_REQUANTIZE(aot_requantize_s32_s8, int32_t, int8_t, -128, 127)
AOT_DEFINE_REQUANTIZE(aot_requantize_u8_s8, uint8_t, int8_t, -128, 127)
AOT_DEFINE_REQUANTIZE(aot_requantize_s8_u8, int8_t, uint8_t, 0, 255)
