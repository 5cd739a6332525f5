/*
 * Reset handler, vector table and fault handlers shared by every aot_rules board (Cortex-M0 to M55 under QEMU).
 *
 * Output and exit go through Arm semihosting (newlib's rdimon), so the guest's exit code becomes QEMU's exit status
 * and thus the result of a `bazel test`. A fault prints its name and the faulting PC, then exits with
 * AOT_FAULT_EXIT_CODE so a crashed firmware can never pass as a test.
 *
 * Compiled with AOT_STARTUP_BARE (the start-up of boards with `semihosting = False`, a real chip with no debugger
 * attached) there is no semihosting at all: fault reports go to aot_putchar() and the exit code to aot_exit(),
 * the hooks of bare_syscalls.c that a firmware overrides (a UART, a reset, a LED).
 */
#include <stdint.h>
#include <stdlib.h>

#define AOT_FAULT_EXIT_CODE 134u
#define AOT_STACK_PAINT     0xA5A5A5A5u

extern uint32_t __data_start__, __data_end__, __data_load__, __bss_start__, __bss_end__;
extern uint32_t __stack_bottom, __stack_top;
/* Pairs of (start, end) addresses of RAM sections the firmware's placement put outside .bss (aot_firmware's
 * linker script); weak so a board's own linker script need not define them. */
extern const uint32_t __aot_zero_table_start[] __attribute__((weak));
extern const uint32_t __aot_zero_table_end[] __attribute__((weak));
extern int main(void);
#if defined(AOT_STARTUP_BARE)
#include "aot_board_io.h"
#else
extern void initialise_monitor_handles(void);
#endif

void aot_reset_handler(void);
void aot_nmi_handler(void);
void aot_hardfault_handler(void);
void aot_memmanage_handler(void);
void aot_busfault_handler(void);
void aot_usagefault_handler(void);
void aot_securefault_handler(void);
void aot_unexpected_handler(void);
void aot_fault_report(const uint32_t* frame, uint32_t fault);

#if defined(AOT_STARTUP_BARE)
static void write_str(const char* s)
{
    while (*s != '\0') aot_putchar((unsigned char)*s++);
}

static void exit_with(uint32_t code)
{
    aot_exit((int)code);
}
#else
static int32_t semihost(uint32_t op, const void* arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void* r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int32_t)r0;
}

static void write_str(const char* s)
{
    (void)semihost(0x04u /* SYS_WRITE0 */, s);
}

/* SYS_EXIT_EXTENDED carries a full exit code (plain SYS_EXIT only says "success" or "failure"). */
static void exit_with(uint32_t code)
{
    uint32_t block[2] = {0x20026u /* ADP_Stopped_ApplicationExit */, code};
    (void)semihost(0x20u, block);
    for (;;) {
    }
}
#endif

static void write_hex(uint32_t v)
{
    char buf[11] = "0x";
    for (int32_t i = 0; i < 8; ++i) {
        uint32_t nibble = (v >> (28 - 4 * i)) & 0xFu;
        buf[2 + i] = (char)(nibble < 10u ? '0' + nibble : 'a' + nibble - 10u);
    }
    buf[10] = '\0';
    write_str(buf);
}

void aot_fault_report(const uint32_t* frame, uint32_t fault)
{
    static const char* const names[] = {"NMI",        "HardFault",   "MemManage fault",     "BusFault",
                                        "UsageFault", "SecureFault", "unexpected interrupt"};
    write_str("\n*** FAULT: ");
    write_str(names[fault < 7u ? fault : 6u]);
    write_str(" at pc=");
    write_hex(frame[6]);
    write_str(" lr=");
    write_hex(frame[5]);
#if !defined(__ARM_ARCH_6M__)
    /* Configurable/HardFault status registers exist from Armv7-M on (not on Cortex-M0). */
    write_str(" CFSR=");
    write_hex(*(volatile const uint32_t*)0xE000ED28u);
    write_str(" HFSR=");
    write_hex(*(volatile const uint32_t*)0xE000ED2Cu);
#endif
    write_str(" ***\n");
    exit_with(AOT_FAULT_EXIT_CODE);
}

/* Each handler passes the exception stack frame (always MSP: nothing here switches to PSP) and its fault id. */
#define AOT_FAULT_HANDLER(fn, id)                                                                                      \
    __attribute__((naked)) void fn(void)                                                                               \
    {                                                                                                                  \
        __asm__ volatile("mrs r0, msp\n movs r1, #" #id "\n ldr r2, =aot_fault_report\n bx r2\n");                     \
    }
AOT_FAULT_HANDLER(aot_nmi_handler, 0)
AOT_FAULT_HANDLER(aot_hardfault_handler, 1)
AOT_FAULT_HANDLER(aot_memmanage_handler, 2)
AOT_FAULT_HANDLER(aot_busfault_handler, 3)
AOT_FAULT_HANDLER(aot_usagefault_handler, 4)
AOT_FAULT_HANDLER(aot_securefault_handler, 5)
AOT_FAULT_HANDLER(aot_unexpected_handler, 6)

/*
 * Stack probe of the firmwares that measure a call's stack (aot_model_test, aot_perf_test): aot_stack_paint() just
 * before the call fills the stack from its bottom up to the caller's stack pointer with AOT_STACK_PAINT, and
 * aot_stack_used() just after it returns how many bytes below the caller's stack pointer the call overwrote (the
 * deepest word no longer painted). Both are frameless assembly: a C function would push its own frame below the
 * caller's stack pointer, in the very words the call is measured by, and a small call would read as deeper than it
 * is. Only low registers and Armv6-M instructions, so one body serves the Cortex-M0 to M55 (unified syntax: GCC
 * hands Thumb-1 inline assembly to the assembler in the divided one).
 */
void aot_stack_paint(void);
uint32_t aot_stack_used(void);

__attribute__((naked)) void aot_stack_paint(void)
{
    __asm__ volatile(".syntax unified\n"
                     "ldr r0, =__stack_bottom\n"
                     "mov r1, sp\n"
                     "ldr r2, =0xA5A5A5A5\n"
                     "1: cmp r0, r1\n"
                     "bhs 2f\n"
                     "str r2, [r0]\n"
                     "adds r0, r0, #4\n"
                     "b 1b\n"
                     "2: bx lr\n"
                     ".ltorg\n");
}

__attribute__((naked)) uint32_t aot_stack_used(void)
{
    __asm__ volatile(".syntax unified\n"
                     "ldr r1, =__stack_bottom\n"
                     "mov r2, sp\n"
                     "ldr r3, =0xA5A5A5A5\n"
                     "1: cmp r1, r2\n"
                     "bhs 2f\n"
                     "ldr r0, [r1]\n"
                     "cmp r0, r3\n"
                     "bne 2f\n"
                     "adds r1, r1, #4\n"
                     "b 1b\n"
                     "2: subs r0, r2, r1\n"
                     "bx lr\n"
                     ".ltorg\n");
}

/* -nostartfiles drops crti.o/crtn.o; newlib's init/fini array walkers still call these hooks. */
void _init(void);
void _fini(void);
void _init(void) {}
void _fini(void) {}

typedef void (*aot_vector)(void);

/* Initial SP, the 15 system exceptions, then a few external interrupts that should never fire here. */
__attribute__((section(".vectors"), used)) static const aot_vector aot_vectors[32] = {
    (aot_vector)(uintptr_t)&__stack_top,
    aot_reset_handler,
    aot_nmi_handler,
    aot_hardfault_handler,
    aot_memmanage_handler,
    aot_busfault_handler,
    aot_usagefault_handler,
    aot_securefault_handler,
    0,
    0,
    0,
    aot_unexpected_handler, /* SVCall */
    aot_unexpected_handler, /* DebugMonitor */
    0,
    aot_unexpected_handler, /* PendSV */
    aot_unexpected_handler, /* SysTick */
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
    aot_unexpected_handler,
};

void aot_reset_handler(void)
{
#if defined(__ARM_FP)
    /* Grant full access to CP10/CP11 before any floating-point instruction runs. */
    *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n isb" ::: "memory");
#endif
#if !defined(__ARM_ARCH_6M__)
    /* Report MemManage, BusFault and UsageFault by name instead of escalating them to HardFault. */
    *(volatile uint32_t*)0xE000ED24u |= (1u << 16) | (1u << 17) | (1u << 18);
#endif
    const uint32_t* src = &__data_load__;
    for (uint32_t* dst = &__data_start__; dst < &__data_end__;) *dst++ = *src++;
    for (uint32_t* dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0u;
    for (const uint32_t* entry = __aot_zero_table_start; entry + 1 < __aot_zero_table_end; entry += 2) {
        for (uint32_t* dst = (uint32_t*)entry[0]; dst < (uint32_t*)entry[1];) *dst++ = 0u;
    }
    /* Paint the stack below the current frame so the whole program's high-water mark can be read (aot_stack_paint
     * repaints below a measured call). */
    uint32_t* sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t* p = &__stack_bottom; p < sp - 16; ++p) *p = AOT_STACK_PAINT;
#if !defined(AOT_STARTUP_BARE)
    initialise_monitor_handles();
#endif
    exit(main());
}
