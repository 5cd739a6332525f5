/* Stack measurement of a firmware's own main, as the generated model tests measure theirs
 * (compiler/commands/testgen_cmd.py): built with AOT_STACK_PROBE, STACK_MEASURED(prefix, call) paints the stack
 * before a run with the board's probe (startup.c) and reads after it how deep the run went, keeping the deepest in
 * the caller's `static uint32_t stack_peak_<prefix>`; STACK_REPORT(prefix) prints it as
 * `aot_stack: <prefix>_run peak=N`, which aot_qemu_test(check_stack = True) holds to the firmware's static bound.
 * Macros, not functions: the probe measures below its caller's stack pointer. The probe is weak: a board with a
 * start-up of its own may not define it. Without AOT_STACK_PROBE both reduce to the plain call. */
#ifndef AOT_STACK_PROBE_H
#define AOT_STACK_PROBE_H

#if defined(AOT_STACK_PROBE)
#include <stdint.h>
#include <stdio.h>

extern void aot_stack_paint(void) __attribute__((weak));
extern uint32_t aot_stack_used(void) __attribute__((weak));

#define STACK_MEASURED(prefix, call)                                                                                   \
    do {                                                                                                               \
        uint32_t stack_used_;                                                                                          \
        if (aot_stack_paint != 0) {                                                                                    \
            aot_stack_paint();                                                                                         \
        }                                                                                                              \
        call;                                                                                                          \
        stack_used_ = aot_stack_used != 0 ? aot_stack_used() : 0u;                                                     \
        if (stack_used_ > stack_peak_##prefix) {                                                                       \
            stack_peak_##prefix = stack_used_;                                                                         \
        }                                                                                                              \
    } while (0)
#define STACK_REPORT(prefix)                                                                                           \
    do {                                                                                                               \
        if (aot_stack_used != 0) {                                                                                     \
            printf("aot_stack: " #prefix "_run peak=%u\n", (unsigned)stack_peak_##prefix);                             \
        } else {                                                                                                       \
            printf("aot_stack: " #prefix "_run peak=unmeasured (the board's start-up has no aot_stack_paint)\n");      \
        }                                                                                                              \
    } while (0)
#else
#define STACK_MEASURED(prefix, call) call
#define STACK_REPORT(prefix)         ((void)0)
#endif

#endif /* AOT_STACK_PROBE_H */
