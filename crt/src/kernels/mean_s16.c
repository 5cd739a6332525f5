/* int16 (16x8 models) mean with TFLite's integer requantization of the sum (mean_body.h). */
#include "aot_sched.h"

#include "aot/kernels/mean.h"

#define AOT_MEAN_T    int16_t
#define AOT_MEAN_MIN  (-32768)
#define AOT_MEAN_MAX  32767
#define AOT_MEAN_NAME aot_mean_s16
#include "mean_body.h"
