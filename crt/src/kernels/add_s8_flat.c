/* int8 ADD and SUB of two inputs of the output's shape (no broadcasting): one flat loop over the elements with the
 * short arithmetic of add_s8_elem.h.  The compiler selects these kernels only when it has proved that arithmetic
 * exact for the op; broadcasting or unusual scales use aot_add_s8 / aot_sub_s8.  ADD runs three elements a pass
 * with the halved input's shortcut (add_s8_elem.h's aot_add_s8_fast3).  The output may be the buffer of
 * either input (each element is read just before the same element is written). */
#include "aot_sched.h"

#include "aot/kernels/add.h"
#include "aot/kernels/sub.h"
#include "add_s8_elem.h"

AOT_ALWAYS_INLINE void aot_add_sub_s8_flat(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size,
                                           const struct aot_add_s8_params* params, int subtract)
{
    /* A local copy: the int8 stores below could alias *params as far as the compiler knows, which would reload
     * every parameter for every element. */
    const struct aot_add_s8_params p = *params;
    int32_t i;
    for (i = 0; i < size; i++) {
        output[i] = (int8_t)aot_add_s8_elem(in1[i], in2[i], &p, subtract);
    }
}

/* ADD, three elements a pass with aot_add_s8_fast3 (the parameters held in registers across the pass); `a` is the
 * input rescaled in full, `b` the halved one. */
static void aot_add_s8_flat3(const int8_t* a, const int8_t* b, int8_t* output, int32_t size,
                             const struct aot_add_s8_fast* f)
{
    int32_t i;
    for (i = 0; i + 3 <= size; i += 3) {
        int32_t v0 = a[i], v1 = a[i + 1], v2 = a[i + 2];
        aot_add_s8_fast3(&v0, &v1, &v2, b[i], b[i + 1], b[i + 2], f);
        output[i] = (int8_t)v0;
        output[i + 1] = (int8_t)v1;
        output[i + 2] = (int8_t)v2;
    }
    for (; i < size; i++) {
        output[i] = (int8_t)aot_add_s8_fast1(a[i], b[i], f);
    }
}

void aot_add_s8_elementwise(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size,
                            const struct aot_add_s8_params* params)
{
    struct aot_add_s8_fast f;
    aot_add_s8_fast_init(&f, params);
    if (f.usable) {
        aot_add_s8_flat3(f.a_is_in2 ? in2 : in1, f.a_is_in2 ? in1 : in2, output, size, &f);
    } else {
        aot_add_sub_s8_flat(in1, in2, output, size, params, 0);
    }
}

void aot_sub_s8_elementwise(const int8_t* in1, const int8_t* in2, int8_t* output, int32_t size,
                            const struct aot_add_s8_params* params)
{
    aot_add_sub_s8_flat(in1, in2, output, size, params, 1);
}
