/* int8 max pooling over in-image taps (pool_q.h). */
#include "aot/kernels/pooling.h"
#include "pool_q.h"

void aot_max_pool_s8(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w,
                     int32_t channels, int8_t* output, int32_t out_h, int32_t out_w,
                     int32_t filter_h, int32_t filter_w, int32_t stride_h, int32_t stride_w,
                     int32_t pad_top, int32_t pad_left, int32_t act_min, int32_t act_max)
{
    struct aot_pool_q_shape s;
    s.batches = batches;
    s.in_h = in_h;
    s.in_w = in_w;
    s.channels = channels;
    s.out_h = out_h;
    s.out_w = out_w;
    s.filter_h = filter_h;
    s.filter_w = filter_w;
    s.stride_h = stride_h;
    s.stride_w = stride_w;
    s.pad_top = pad_top;
    s.pad_left = pad_left;
    (void)aot_pool_q(input, output, &s, 1, 0, act_min, act_max);
}
