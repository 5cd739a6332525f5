/* The blocks of 8 rows of the DSP fully connected kernels (aot_fc8_blocks, fully_connected_s8_dsp_parts.h) in a unit
 * of their own: the general entry points (fully_connected_s8_dsp.c, fully_connected_s8_dsp_exact.c) and the chain
 * of per-tensor layers (fully_connected_s8_dsp_chain.c) call the one routine, and an image of chained layers links
 * it without the general entry point's C.  Off the Thumb-2 DSP cores it defines nothing (the C form of the blocks is
 * inline).
 */
#include "aot_sched.h"

/* The routine only: not the static input expansion of the units that call it. */
#define AOT_FC8_UNIT 1
#include "fully_connected_s8_dsp_parts.h"

#if AOT_FC8_ASM
AOT_FC8_ATTR void aot_fc8_blocks(struct aot_fc8_job* job AOT_FC8_ARG, uint32_t quads AOT_FC8_ARG,
                                 uint32_t mode AOT_FC8_ARG)
{
    __asm__ volatile(
        /* The job onto the stack frame; the loop's entry: 116 bytes per quad skipped, Thumb bit set. */
        "push {r4-r11, lr}\n\t"
        "sub sp, sp, #60\n\t"
        "ldm r0!, {r3-r10}\n\t"
        "stm sp, {r3-r10}\n\t"
        "ldm r0, {r3-r9}\n\t"
        "add r10, sp, #32\n\t"
        "stm r10, {r3-r9}\n\t"
        "rsb r1, r1, #0\n\t"
        "and r1, r1, #7\n\t"
        "movs r3, #116\n\t"
        "mul r1, r1, r3\n\t"
        "adr.w r3, 10f\n\t"
        "add r1, r1, r3\n\t"
        "orr r1, r1, #1\n\t"
        /* The mode's tail and where its requantization goes on (the table's pair of words), the outputs' end. */
        "adr.w r3, 30f\n\t"
        "add r3, r3, r2, lsl #3\n\t"
        "ldrd r3, r2, [r3]\n\t"
        "strd r1, r3, [sp]\n\t"
        "ldr r12, [sp, #52]\n\t"
        "str r2, [sp, #52]\n\t"
        "ldrd r4, r5, [sp, #20]\n\t"
        "add r5, r4, r5, lsl #3\n\t"
        "str r5, [sp, #24]\n\t"
        /* A block: biases, the input from its start, into the loop. */
        "1:\n\t"
        "ldr lr, [sp, #16]\n\t"
        "ldmia lr!, {r0-r7}\n\t"
        "str lr, [sp, #16]\n\t"
        "ldr lr, [sp, #8]\n\t"
        "ldr pc, [sp]\n\t"
        "10:\n\t" AOT_FC8_QUAD AOT_FC8_QUAD AOT_FC8_QUAD AOT_FC8_QUAD AOT_FC8_QUAD AOT_FC8_QUAD AOT_FC8_QUAD
            AOT_FC8_QUAD "ldr r11, [sp, #12]\n\t"
        "cmp lr, r11\n\t"
        "bne 10b\n\t"
        "ldr pc, [sp, #4]\n\t"
        /* Tails: the requantization (AOT_FC8_FULL, AOT_FC8_CLAMP), the clamp (AOT_FC8_CLAMP), the stores. */
        "20:\n\t" AOT_FC8_REQ8 "ldr pc, [sp, #52]\n\t"
        "21:\n\t"
        "ldrd r8, r9, [sp, #44]\n\t"
        "ssub8 r10, r0, r8\n\t"
        "sel r0, r0, r8\n\t"
        "ssub8 r10, r0, r9\n\t"
        "sel r0, r9, r0\n\t"
        "ssub8 r10, r4, r8\n\t"
        "sel r4, r4, r8\n\t"
        "ssub8 r10, r4, r9\n\t"
        "sel r4, r9, r4\n\t"
        "23:\n\t"
        "ldr lr, [sp, #20]\n\t"
        "str r0, [lr], #4\n\t"
        "str r4, [lr], #4\n\t"
        "str lr, [sp, #20]\n\t"
        "ldr r0, [sp, #24]\n\t"
        "cmp lr, r0\n\t"
        "bne 1b\n\t"
        "b 9f\n\t"
        /* AOT_FC8_RAW. */
        "22:\n\t"
        "ldr r8, [sp, #56]\n\t"
        "sub r0, r0, r8\n\t"
        "sub r1, r1, r8\n\t"
        "sub r2, r2, r8\n\t"
        "sub r3, r3, r8\n\t"
        "sub r4, r4, r8\n\t"
        "sub r5, r5, r8\n\t"
        "sub r6, r6, r8\n\t"
        "sub r7, r7, r8\n\t"
        "ldr lr, [sp, #20]\n\t"
        "stm lr, {r0-r7}\n\t"
        "9:\n\t"
        "add sp, sp, #60\n\t"
        "pop {r4-r11, pc}\n\t"
        /* Per mode (AOT_FC8_FULL, _CLAMP, _RAW): the tail and where the requantization goes on, Thumb bit set. */
        ".p2align 2\n\t"
        "30:\n\t"
        ".word 20b + 1, 23b + 1\n\t"
        ".word 20b + 1, 21b + 1\n\t"
        ".word 22b + 1, 0\n\t");
}
#endif
#undef AOT_FC8_UNIT
