/* DYNAMIC_UPDATE_SLICE (aot/kernels/dynamic_update_slice.h): one copy of the operand, then the update's rows. */
#include "aot_sched.h"

#include <string.h>

#include "aot/kernels/dynamic_update_slice.h"

void aot_dynamic_update_slice(const void* operand, const void* update, void* output, int32_t elem_size, int32_t rank,
                              const int32_t* dims, const int32_t* update_dims, const int32_t* starts)
{
    int32_t stride[AOT_DUS_MAX_RANK];
    int32_t at[AOT_DUS_MAX_RANK];
    int32_t total = 1, update_total = 1, base = 0, rows, row_bytes, r, d;
    const uint8_t* src = (const uint8_t*)update;
    uint8_t* dst = (uint8_t*)output;

    for (d = 0; d < rank; d++) {
        total *= dims[d];
        update_total *= update_dims[d];
    }
    /* An update as large as the operand replaces it whatever the starts (they all clamp to 0). */
    if (total == update_total) {
        /* The same tensor as operand and update may share the output's buffer (in place): nothing to move. */
        if (total > 0 && output != update) {
            memcpy(output, update, (size_t)total * (size_t)elem_size);
        }
        return;
    }
    if (output != operand) {
        memcpy(output, operand, (size_t)total * (size_t)elem_size);
    }
    if (update_total == 0) {
        return;
    }
    stride[rank - 1] = 1;
    for (d = rank - 2; d >= 0; d--) {
        stride[d] = stride[d + 1] * dims[d + 1];
    }
    for (d = 0; d < rank; d++) {
        const int32_t limit = dims[d] - update_dims[d];
        int32_t s = starts[d];
        s = s < 0 ? 0 : s;
        s = s > limit ? limit : s;
        base += s * stride[d];
        at[d] = 0;
    }
    row_bytes = update_dims[rank - 1] * elem_size;
    rows = update_total / update_dims[rank - 1];
    for (r = 0; r < rows; r++) {
        int32_t off = base;
        for (d = 0; d < rank - 1; d++) {
            off += at[d] * stride[d];
        }
        memcpy(dst + (size_t)off * (size_t)elem_size, src, (size_t)row_bytes);
        src += row_bytes;
        /* Next update row: advance the row counters, last dimension but one fastest. */
        for (d = rank - 2; d >= 0; d--) {
            if (++at[d] < update_dims[d]) {
                break;
            }
            at[d] = 0;
        }
    }
}
