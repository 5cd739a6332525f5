/* The product's application: runs the model on its reference cases (TFLite Micro's outputs, computed at build
 * time) and returns 0 only if every output byte matches. */
#include <stdio.h>
#include <string.h>

#include "tiny_m7.h"
#include "tiny_m7_ref.h"

static uint8_t workspace[TINY_M7_WORKSPACE_SIZE] __attribute__((aligned(TINY_M7_WORKSPACE_ALIGN)));

int main(void)
{
    static int8_t scores[TINY_M7_SCORES_SIZE];
    int mismatches = 0;
    for (int c = 0; c < TINY_M7_REF_COUNT; ++c) {
        struct tiny_m7_inputs in = {tiny_m7_ref_image + c * TINY_M7_IMAGE_SIZE};
        struct tiny_m7_outputs out = {scores};
        if (tiny_m7_run(&in, &out, workspace) != 0) return 2;
        mismatches += memcmp(scores, tiny_m7_ref_scores_want + c * TINY_M7_SCORES_SIZE, sizeof(scores)) != 0;
    }
    printf("own toolchain: %d reference cases, %d mismatches\n", TINY_M7_REF_COUNT, mismatches);
    return mismatches != 0;
}
