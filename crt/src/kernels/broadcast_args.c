/* BROADCAST_ARGS (aot/kernels/broadcast_args.h). */
#include "aot_sched.h"

#include "aot/errors.h"
#include "aot/kernels/broadcast_args.h"

int32_t aot_broadcast_args(const int32_t* a, int32_t na, const int32_t* b, int32_t nb, int32_t* output, int32_t n_out)
{
    int32_t i;
    for (i = 0; i < n_out; i++) {
        const int32_t ia = na - n_out + i;
        const int32_t ib = nb - n_out + i;
        const int32_t x = ia >= 0 ? a[ia] : 1;
        const int32_t y = ib >= 0 ? b[ib] : 1;
        if (x != y && x != 1 && y != 1) {
            return AOT_ERR_KERNEL;
        }
        output[i] = x == 1 ? y : x;
    }
    return AOT_OK;
}
