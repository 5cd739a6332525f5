/* The blocks of 8 rows of the DSP fully connected kernels (aot_fc8_blocks, fully_connected_s8_dsp_parts.h) in a unit
 * of their own: the general entry points (fully_connected_s8_dsp.c, fully_connected_s8_dsp_exact.c) and the chain
 * of per-tensor layers (fully_connected_s8_dsp_chain.c) call the one routine, and an image of chained layers links
 * it without the general entry point's C.  Empty off the Thumb-2 DSP cores (the C form of the blocks is inline).
 */
#include "aot_sched.h"

#define AOT_FC8_DEFINE 1
#include "fully_connected_s8_dsp_parts.h"

/* ISO C forbids an empty translation unit. */
typedef int aot_fc8_unit_not_empty;
