/* int8 2-D convolution with a fused residual ADD for cores with Helium (MVE): the entry point
 * aot_conv2d_s8_mve_runs_add (aot/kernels/conv2d.h), which the compiler calls for a layer whose every pixel pair the
 * runs of aot_mve_runs_pairs take (mve_runs_entry in compiler/ops/common/mve_layout.py: ResNet-8's fused layers), in
 * a unit of its own so that an image whose fused layers are all such does not link aot_conv2d_s8_mve_add's general
 * pass (about 5 KB on the Cortex-M55).  Builds without Helium or optimisation run the whole pass.  Residual element
 * i is read just before output element i is stored, so the output may overwrite the residual.
 */
#include "aot_sched.h"

/* The block routines, im2col and gathers are conv2d_s8_mve.c's (as in conv2d_s8_mve_add.c). */
#define AOT_MVE_CONV_DECLARE 1
#include "conv2d_s8_mve_pass.h"

void aot_conv2d_s8_mve_runs_add(const int8_t* input, int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                                const int8_t* filter, int32_t filter_h, int32_t filter_w, const int32_t* bias,
                                int8_t* output, int32_t out_h, int32_t out_w, int32_t out_c, int32_t stride_h,
                                int32_t stride_w, int32_t dilation_h, int32_t dilation_w, int32_t pad_top,
                                int32_t pad_left, int32_t input_zero_point, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t act_min,
                                int32_t act_max, int8_t* scratch, const int8_t* residual,
                                const struct aot_add_s8_params* residual_add)
{
    struct aot_add_s8_params add = *residual_add; /* a local copy: the int8 stores cannot alias it */
#if defined(__ARM_FEATURE_MVE)
    int32_t tab[AOT_MVE_ADD_TAB];
#endif
    AOT_CONV2D_S8_MVE_SETUP;
    rq.add = &add;
#if defined(__ARM_FEATURE_MVE)
    aot_mve_add_tables(tab, &add);
    rq.add_tab = tab;
    rq.out_offset += 128;
    rq.act_min += 128;
    rq.act_max += 128;
#endif
#if defined(__OPTIMIZE__) && defined(__ARM_FEATURE_MVE)
    aot_conv2d_s8_mve_runs_pass(&g, filter, output, batches, out_c, &rq, scratch, residual, 1);
#else
    aot_conv2d_s8_mve_body(&g, filter, output, batches, out_c, &rq, scratch, residual, 1, 1);
#endif
}
