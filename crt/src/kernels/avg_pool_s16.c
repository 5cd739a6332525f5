/* int16 (16x8 models) average pooling (rounds half away from zero) over in-image taps (avg_pool_body.h). */
#include "aot_sched.h"

#include "aot/kernels/pooling.h"

#define AOT_POOL_T    int16_t
#define AOT_POOL_NAME aot_avg_pool_s16
#include "avg_pool_body.h"
