/*
 * aot_exit() for a board run under QEMU: output goes over the SoC's UART, but only a semihosting call ends the
 * emulator with the guest's exit code (SYS_EXIT_EXTENDED, so QEMU exits with `code`). A real chip has no such
 * call: its aot_exit resets or parks the core.
 */
#include <stdint.h>

#include "aot_board_io.h"

void aot_exit(int code)
{
    uint32_t block[2] = {0x20026u /* ADP_Stopped_ApplicationExit */, (uint32_t)code};
    register uint32_t r0 __asm__("r0") = 0x20u;
    register const uint32_t* r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    for (;;) {
    }
}
