/* SQUARED_DIFFERENCE (aot/kernels/squared_difference.h). */
#include "aot_sched.h"

#include "aot/kernels/squared_difference.h"
#include "aot/requant.h"
#include "broadcast2.h"

void aot_squared_difference_f32(const float* in1, const float* in2, float* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides)
{
    AOT_BROADCAST_2(dims, in1_strides, in2_strides, {
        const float d = in1[a] - in2[b];
        output[o] = d * d;
    });
}

void aot_squared_difference_s32(const int32_t* in1, const int32_t* in2, int32_t* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides)
{
    AOT_BROADCAST_2(dims, in1_strides, in2_strides, {
        const uint32_t d = (uint32_t)in1[a] - (uint32_t)in2[b];
        const uint32_t sq = d * d;
        output[o] = sq <= 0x7FFFFFFFu ? (int32_t)sq : -(int32_t)(0xFFFFFFFFu - sq) - 1;
    });
}

static int32_t aot_sqdiff_q(int32_t x, int32_t y, const struct aot_squared_difference_params* p, int32_t lo, int32_t hi)
{
    const int32_t sx =
        aot_multiply_by_quantized_multiplier((x + p->offset1) * (1 << p->left_shift), p->multiplier1, p->shift1);
    const int32_t sy =
        aot_multiply_by_quantized_multiplier((y + p->offset2) * (1 << p->left_shift), p->multiplier2, p->shift2);
    const int32_t d = sx - sy;
    int32_t v = aot_multiply_by_quantized_multiplier(d * d, p->out_multiplier, p->out_shift) + p->out_offset;
    return v < lo ? lo : (v > hi ? hi : v);
}

void aot_squared_difference_s8(const int8_t* in1, const int8_t* in2, int8_t* output, const int32_t* dims,
                               const int32_t* in1_strides, const int32_t* in2_strides,
                               const struct aot_squared_difference_params* p)
{
    AOT_BROADCAST_2(dims, in1_strides, in2_strides, output[o] = (int8_t)aot_sqdiff_q(in1[a], in2[b], p, -128, 127));
}

void aot_squared_difference_s16(const int16_t* in1, const int16_t* in2, int16_t* output, const int32_t* dims,
                                const int32_t* in1_strides, const int32_t* in2_strides,
                                const struct aot_squared_difference_params* p)
{
    AOT_BROADCAST_2(dims, in1_strides, in2_strides,
                    output[o] = (int16_t)aot_sqdiff_q(in1[a], in2[b], p, -32768, 32767));
}
