/* aot_mve_dot_blocks1 (mve_s8.h), one pixel against blocks of 4 channels, in a unit of its own: the Helium
 * convolution's and fully connected layer's units call it, and without -ffunction-sections an image with both
 * links it once.  Nothing without Helium.
 */
#include "aot_sched.h"

#define AOT_MVE_DOT_BLOCKS1 1
#include "mve_s8.h"
