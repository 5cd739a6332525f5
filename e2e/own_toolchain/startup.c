/* The product's own start-up code: vector table, .data/.bss set-up, FPU on, main(), exit code to the debugger
 * (semihosting, so QEMU returns it). */
#include <stdint.h>
#include <string.h>

extern uint32_t __data_start, __data_end, __data_load, __bss_start, __bss_end, __stack_top;
extern int main(void);
extern void initialise_monitor_handles(void);

static void product_exit(int code)
{
    /* SYS_EXIT_EXTENDED: r0 = 0x20, r1 = {ADP_Stopped_ApplicationExit, code}. */
    volatile uint32_t block[2] = {0x20026u, (uint32_t)code};
    register uint32_t r0 __asm__("r0") = 0x20u;
    register volatile uint32_t* r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : : "r"(r0), "r"(r1) : "memory");
    for (;;) {
    }
}

void product_reset(void)
{
    memcpy(&__data_start, &__data_load, (uint32_t)((char*)&__data_end - (char*)&__data_start));
    memset(&__bss_start, 0, (uint32_t)((char*)&__bss_end - (char*)&__bss_start));
    *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20; /* CPACR: CP10/CP11 full access */
    __asm__ volatile("dsb\n\tisb");
    initialise_monitor_handles();
    product_exit(main());
}

static void product_fault(void)
{
    product_exit(99);
}

__attribute__((section(".vectors"), used)) static void (*const product_vectors[16])(void) = {
    (void (*)(void))(&__stack_top),
    product_reset,
    product_fault,
    product_fault,
    product_fault,
    product_fault,
    product_fault};
