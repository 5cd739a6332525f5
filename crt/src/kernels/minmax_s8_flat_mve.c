/* int8 MAXIMUM / MINIMUM of two inputs of the output's shape on Helium (aot/kernels/binary.h): VMAX / VMIN on 16
 * values per vector, the last size % 16 under a VCTP predicate (the stored values compared, as TFLite Micro does).
 * The output may be the buffer of either input.  Without MVE (a host build) the portable walker runs. */
#include "aot_sched.h"

#include "aot/kernels/binary.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

void aot_minmax_s8_flat_mve(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size)
{
    int32_t i;
    if (op == AOT_BINARY_MAX) {
        for (i = 0; i < size; i += 16) {
            const mve_pred16_t p = vctp8q((uint32_t)(size - i));
            vstrbq_p_s8(output + i, vmaxq_s8(vldrbq_z_s8(in1 + i, p), vldrbq_z_s8(in2 + i, p)), p);
        }
    } else {
        for (i = 0; i < size; i += 16) {
            const mve_pred16_t p = vctp8q((uint32_t)(size - i));
            vstrbq_p_s8(output + i, vminq_s8(vldrbq_z_s8(in1 + i, p), vldrbq_z_s8(in2 + i, p)), p);
        }
    }
}

#else

void aot_minmax_s8_flat_mve(int32_t op, const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size)
{
    const int32_t dims[4] = {1, 1, 1, size}, strides[4] = {0, 0, 0, 1};
    aot_minmax_s8(op, in1, in2, output, dims, strides, strides);
}

#endif
