/* int8 fully connected layer for cores with the DSP extension (dual 16-bit MACs), with a portable fallback.
 *
 * The compiler selects this kernel for cores with the DSP extension when accum_depth is a multiple of 4, the
 * input zero point is folded into the bias (see dsp_s8.h); aot_fully_connected_s8_dsp_exact is the same loop with
 * TFLite's full requantization, for layers whose constants compiler/ops/common/short_requant.py refuses.  It stores
 * the weights in the "raw weight word" form of dsp_s8.h (three instructions per four MACs) and in this order,
 * so the inner loops stream them through one pointer:
 *   - output rows in blocks of 8; per block and per 4 input values: row0 (one word), row1, ..., row7;
 *   - the last out_depth % 8 rows follow, each row's words in order.
 * The input row is expanded once per batch into scratch (accum_depth * 2 bytes); the rows of a block share every
 * load of it.  With GCC or Clang on a Thumb-2 core with the DSP extension the blocks of 8 rows are one assembly
 * routine (aot_fc8_blocks, fully_connected_s8_dsp_parts.h: the layer's blocks, their requantization and stores, 29
 * instructions per 32 MACs in its loop); elsewhere C.  Requires accum_depth > 0.
 */
#include "aot_sched.h"

#include "fully_connected_s8_dsp_parts.h"

#define AOT_FC_DSP_NAME  aot_fully_connected_s8_dsp
#define AOT_FC_DSP_OUT   aot_fc_out
#define AOT_FC_DSP_SHORT 1
#include "fully_connected_s8_dsp_body.h"
#undef AOT_FC_DSP_NAME
#undef AOT_FC_DSP_OUT
#undef AOT_FC_DSP_SHORT
