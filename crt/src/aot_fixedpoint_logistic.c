/* tanh's sibling, the logistic, in gemmlowp fixed point (aot_fixedpoint.h), apart from the helpers softmax also
 * calls.
 *
 * Without -ffunction-sections an image links whole objects: in a unit of its own, only images with an int8
 * LOGISTIC link it.
 */
#include "kernels/aot_sched.h"

#include "aot/fixedpoint.h"

int32_t aot_fp_logistic(int32_t a, int32_t integer_bits)
{
    /* logistic(|a|) = 1 / (1 + exp(-|a|)); negative inputs use 1 - logistic(|a|)
     * where "1" is the Q0.31 value INT32_MAX, exactly as gemmlowp does. */
    int32_t positive;
    if (a == 0) {
        return (int32_t)1 << 30; /* exactly 1/2 */
    }
    positive = aot_fp_one_over_one_plus_x(aot_fp_exp_on_negative_values(a > 0 ? -a : a, integer_bits));
    return a > 0 ? positive : INT32_MAX - positive;
}
