/* int8 fully connected layer for cores with the DSP extension, TFLite's full requantization:
 * aot_fully_connected_s8_dsp_exact, the loop of fully_connected_s8_dsp.c (layout and contract there) for layers whose
 * constants compiler/ops/common/short_requant.py refuses, in a unit of its own so that other models do not link it.
 */
#include "aot_sched.h"

#include "fully_connected_s8_dsp_parts.h"

#define AOT_FC_DSP_NAME  aot_fully_connected_s8_dsp_exact
#define AOT_FC_DSP_OUT   aot_fc_out_exact
#define AOT_FC_DSP_SHORT 0
#include "fully_connected_s8_dsp_body.h"
#undef AOT_FC_DSP_NAME
#undef AOT_FC_DSP_OUT
#undef AOT_FC_DSP_SHORT
