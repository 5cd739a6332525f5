/* Fully connected layer: output[b][o] = sum_d filter[o][d] * input[b][d] + bias[o].
 *
 * Requantization parameters are arrays indexed by o * multiplier_stride, so
 * the same kernel serves per-tensor (stride 0) and per-channel (stride 1)
 * quantization.  bias may be NULL.  */
#ifndef AOT_KERNELS_FULLY_CONNECTED_H_
#define AOT_KERNELS_FULLY_CONNECTED_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void aot_fully_connected_s8(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                            const int32_t* bias, int8_t* output, int32_t out_depth, int32_t input_offset,
                            int32_t output_offset, const int32_t* out_multiplier, const int32_t* out_shift,
                            int32_t multiplier_stride, int32_t act_min, int32_t act_max);

/* DSP-extension fast path (portable fallback elsewhere): weights in the compiler's 8-row interleaved
 * layout (fully_connected_s8_dsp.c), input zero point folded into `bias` (not NULL); per output row (or one
 * for all when multiplier_stride is 0) a multiplier and an add constant holding the output offset and the
 * rounding (dsp_s8.h); accum_depth a positive multiple of 4; scratch holds accum_depth * 2 bytes. */
void aot_fully_connected_s8_dsp(const int8_t* input, int32_t batches, int32_t accum_depth, const int32_t* filter,
                                const int32_t* bias, int8_t* output, int32_t out_depth, const int32_t* out_multiplier,
                                const int32_t* out_add, int32_t multiplier_stride, int32_t act_min, int32_t act_max,
                                int32_t* scratch);

/* The same with TFLite's full requantization per output: per row (or one) zp * 256 + shift instead of the add
 * constant.  For layers with a row whose quantization the short form cannot express exactly. */
void aot_fully_connected_s8_dsp_exact(const int8_t* input, int32_t batches, int32_t accum_depth, const int32_t* filter,
                                      const int32_t* bias, int8_t* output, int32_t out_depth,
                                      const int32_t* out_multiplier, const int32_t* out_zp_shift,
                                      int32_t multiplier_stride, int32_t act_min, int32_t act_max, int32_t* scratch);
/* One layer of a chain of per-tensor DSP fully connected layers (aot_fully_connected_s8_dsp_chain): its arguments
 * of aot_fully_connected_s8_dsp, the buffers as workspace offsets (AOT_FC_DSP_EXT: the chain's input or output). */
#define AOT_FC_DSP_EXT 0xFFFFFFFFu
struct aot_fc_dsp_step {
    const int32_t* filter;
    const int32_t* bias;
    const int32_t* out_multiplier; /* one for the layer */
    const int32_t* out_add;        /* one for the layer */
    uint32_t input;
    uint32_t output;
    uint32_t scratch;
    uint16_t accum_depth; /* a positive multiple of 4 */
    uint16_t out_depth;   /* a positive multiple of 8 */
    uint16_t batches;
    int8_t act_min;
    int8_t act_max;
};

/* aot_fully_connected_s8_dsp over `count` layers in order, from a table in flash (a run of calls in the runner costs
 * more code than its table): every layer per-tensor with the short requantization and out_depth a multiple of 8. */
void aot_fully_connected_s8_dsp_chain(const struct aot_fc_dsp_step* steps, int32_t count, uint8_t* ws,
                                      const int8_t* input, int8_t* output);

/* int16x8 (int16 activations with zero point 0, int8 weights): accumulation and requantization in the layer's
 * `mode` (aot/kernels/acc16_inline.h), parameters indexed by o * multiplier_stride; bias may be NULL. */
void aot_fully_connected_s16(const int16_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                             const int32_t* bias, int16_t* output, int32_t out_depth, int32_t mode,
                             const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                             int32_t act_min, int32_t act_max);
/* The same on DSP cores with SMLAD: filter quads in the order of acc16_dsp.h (compiler/ops/common/int16.py
 * dsp_quad_order), int32 and narrowed forms only. */
void aot_fully_connected_s16_dsp(const int16_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                 const int32_t* bias, int16_t* output, int32_t out_depth, int32_t mode,
                                 const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                 int32_t act_min, int32_t act_max);
/* Helium (MVE) fast path (portable fallback elsewhere): weights in the compiler's layout of
 * crt/src/kernels/mve_s8.h (4-channel blocks of 16 taps), input zero point folded into `bias` (not NULL); per output
 * row (or one for all when multiplier_stride is 0) a multiplier and a TFLite shift; no scratch. */
void aot_fully_connected_s8_mve(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                const int32_t* bias, int8_t* output, int32_t out_depth, int32_t output_offset,
                                const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                int32_t act_min, int32_t act_max);

/* The same for layers whose shifts are all right shifts (or multipliers 0), one batch row at a time (the block loops
 * of a single row; fully_connected_s8_mve_row.c, a unit of its own): the compiler calls it for such layers of one
 * batch row. */
void aot_fully_connected_s8_mve_row(const int8_t* input, int32_t batches, int32_t accum_depth, const int8_t* filter,
                                    const int32_t* bias, int8_t* output, int32_t out_depth, int32_t output_offset,
                                    const int32_t* out_multiplier, const int32_t* out_shift, int32_t multiplier_stride,
                                    int32_t act_min, int32_t act_max);

void aot_fully_connected_f32(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                             const float* bias, float* output, int32_t out_depth, float act_min, float act_max);
/* The same, fast (crt/src/kernels/gemm_f32_tile.h): weights as blocks of `block` output units, each
 * [accum_depth][block], the last block zero-padded; or, block 16 (Helium's layout, also taken by the host's C form,
 * not by the FPU cores' builds), blocks of 16 units whose last holds the remaining units rounded up to 4, each
 * [accum_depth][width], and the bias (if any) zero-padded to a multiple of 4 units.  Each output is the reference
 * kernel's sum in its order, each step a fused multiply-add. */
void aot_fully_connected_f32_gemm(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                  int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                  float act_max);
/* The same outputs one batch row at a time (no pair tile: a smaller unit on the FPU cores, for a batch of one). */
void aot_fully_connected_f32_gemm_row(const float* input, int32_t batches, int32_t accum_depth, const float* filter,
                                      int32_t block, const float* bias, float* output, int32_t out_depth, float act_min,
                                      float act_max);

#ifdef __cplusplus
}
#endif

#endif
