/* int16 (16x8 models) max pooling over in-image taps (max_pool_body.h). */
#include "aot_sched.h"

#include "aot/kernels/pooling.h"

#define AOT_POOL_T      int16_t
#define AOT_POOL_LOWEST (-32768)
#define AOT_POOL_NAME   aot_max_pool_s16
#include "max_pool_body.h"
