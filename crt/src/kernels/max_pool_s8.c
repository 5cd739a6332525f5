/* int8 max pooling over in-image taps (max_pool_body.h). */
#include "aot_sched.h"

#include "aot/kernels/pooling.h"

#define AOT_POOL_T      int8_t
#define AOT_POOL_LOWEST (-128)
#define AOT_POOL_NAME   aot_max_pool_s8
#include "max_pool_body.h"
