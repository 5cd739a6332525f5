/* Uses the generated API as a firmware engineer would: only tiny.h, a static workspace, plain structs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tiny.h"

static uint8_t workspace[TINY_WORKSPACE_SIZE] __attribute__((aligned(TINY_WORKSPACE_ALIGN)));

int main(void)
{
    static int8_t image[TINY_IMAGE_SIZE];
    static int8_t scores[TINY_SCORES_SIZE];
    /* A mid-grey image: the real value 0.5 quantized with the input's own scale and zero point. */
    memset(image, (int8_t)(0.5f / TINY_IMAGE_SCALE + TINY_IMAGE_ZERO_POINT), sizeof(image));
    struct tiny_inputs in = {image};
    struct tiny_outputs out = {scores};
    if (tiny_run(&in, &out, workspace) != 0) {
        printf("tiny_run failed\n");
        return 1;
    }
    /* Softmax output: probabilities (int8, zero point -128, scale 1/256) must sum to about 1. */
    int32_t sum = 0;
    for (int32_t i = 0; i < (int32_t)sizeof(scores); ++i) sum += scores[i] - TINY_SCORES_ZERO_POINT;
    printf("tiny: workspace %u B, weights %u B, scores sum %d/256\n", (unsigned)TINY_WORKSPACE_SIZE,
           (unsigned)TINY_WEIGHT_BYTES, (int)sum);
    if (sum < 250 || sum > 262) return 1;
    /* Bad arguments are refused with negative error codes. */
    if (tiny_run(NULL, &out, workspace) >= 0) return 1;
    if (tiny_run(&in, &out, workspace + 1) >= 0) return 1;
    return 0;
}
