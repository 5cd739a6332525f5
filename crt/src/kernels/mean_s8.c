/* int8 mean with TFLite's integer requantization of the sum (mean_body.h). */
#include "aot_sched.h"

#include "aot/kernels/mean.h"

#define AOT_MEAN_T    int8_t
#define AOT_MEAN_MIN  (-128)
#define AOT_MEAN_MAX  127
#define AOT_MEAN_NAME aot_mean_s8
#include "mean_body.h"
