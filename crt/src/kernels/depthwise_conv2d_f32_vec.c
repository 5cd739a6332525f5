/* The fast float32 depthwise convolution of depth multiplier 1 (depthwise_conv2d_f32_vec_body.h): every form but
 * the FPU cores' single column of 3 tap columns (its unit: depthwise_conv2d_f32_vec3.c). */
#include "aot_sched.h"

#include "depthwise_conv2d_f32_vec_body.h"
