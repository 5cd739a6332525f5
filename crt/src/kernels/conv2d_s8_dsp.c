/* int8 2-D convolution for cores with the DSP extension (dual 16-bit MACs), with a portable fallback.
 *
 * im2col + GEMM: three output pixels at a time (a tile) are gathered into scratch (taps outside the image read the
 * input zero point, so the compiler can always fold -zero_point * sum(w) into the bias) and expanded once
 * into the raw-word input form of dsp_s8.h; then every pair of output channels multiplies the three pixels,
 * so each weight word is loaded and extended once per three pixels and each input pair once per two channels.
 *
 * Weight layout written by the compiler (K = filter_h * filter_w * in_c, Q = K / 4 whole quads):
 *   - per pair of output channels (c, c + 1) and per quad: word of c, word of c + 1 (raw-word form);
 *     an odd last channel follows with its Q words;
 *   - then, per output channel, its K % 4 remaining weights as plain int8 (read as the word ending after them, so
 *     K >= 4 when K % 4 != 0).
 * Scratch (bytes): 24 * Q + 24 if K % 4 != 0, plus, when in_c is not a multiple of 4, the gather: one filter row
 * (filter_w * in_c bytes) when that is whole quads and dilation_w == 1, else K rounded up to 4;
 * compiler/ops/common/conv.py (DSP_GEMM_TILE, dsp_gather_bytes) has the same formula.
 * Filter rows made of whole quads (filter_w * in_c % 4 == 0, e.g. one input channel and an even filter
 * width) are expanded straight from the input when inside the image.
 * Requantization: per output channel a multiplier and an add constant (output offset and rounding, see
 * dsp_s8.h), from compiler/ops/common/short_requant.py (which also proves |acc| < 2^30); aot_conv2d_s8_dsp_exact takes
 * zp * 256 + shift instead and requantizes in full (TFLite's function, any accumulator), for layers with a channel
 * the short form cannot express.
 * Requires: filter depth == in_c (no groups).
 * Fused residual ADD (aot/kernels/conv2d.h): aot_conv2d_s8_dsp_add is the same inline body instantiated with it,
 * so the plain convolution runs the code it ran before.  The body is conv2d_s8_dsp_body.h; every entry point has a
 * unit of its own (this one aot_conv2d_s8_dsp; conv2d_s8_dsp_sat.c, _exact.c, the few-quad _k8.c ... _k27.c and the
 * fused ADD's _add.c; the out-of-line helpers once in _rows.c), so that an image built without -ffunction-sections
 * links only the entry points its layers call.
 * The GEMM is instantiated per (activation range is all of int8, fused ADD, full requantization): those checks
 * are made once per layer.  With the range all of int8 and K % 4 == 0 a tile's channel pairs are one naked asm routine
 * (aot_conv_pairs: preset, MACs, requantization and stores); with a fused ADD its outputs go through a stack stage
 * and aot_conv_add_row.
 */
#include "aot_sched.h"

#include "conv2d_s8_dsp_body.h"

AOT_CONV_GEMM(aot_conv_gemm_clamp, 0, 0, 0, -1, 0)

AOT_CONV_DSP_ENTRY(aot_conv2d_s8_dsp, aot_conv_gemm_clamp)
