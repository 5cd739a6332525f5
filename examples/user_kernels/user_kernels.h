/* The example's user kernels (examples/user_kernels): their status codes and call counters. */
#ifndef USER_KERNELS_EXAMPLE_H_
#define USER_KERNELS_EXAMPLE_H_

#include <stdint.h>

#include "aot/user_kernel.h"

/* Status codes of the kernels' own failures (below AOT_ERR_USER_BASE, distinct from the CRT's). */
#define USER_FC_FAULT         (AOT_ERR_USER_BASE - 1)
#define CLAMP_FLOOR_BAD_MODEL (AOT_ERR_USER_BASE - 2)

extern int32_t user_fc_calls;   /* calls of user_fully_connected_s8 */
extern int32_t user_fc_fail_at; /* the call (0-based) that reports USER_FC_FAULT, or -1 */
extern int32_t clamp_floor_init_calls;

#endif /* USER_KERNELS_EXAMPLE_H_ */
