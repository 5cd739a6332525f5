/* Calibration firmware of the instruction counter: between the two markers runs a loop of exactly 3 instructions
 * per iteration (subs, nop, bne), for N iterations given at build time. The markers are called from the same asm
 * block as the loop, so no compiler-chosen instruction sits between them: calibration_test expects exactly
 * 3N + 3 (the start marker's nop and bx lr, and the call of the end marker). */
#include <stdint.h>
#include <stdio.h>

void bench_start_marker(void) __attribute__((noinline));
void bench_end_marker(void) __attribute__((noinline));
void bench_start_marker(void)
{
    __asm__ volatile("nop");
}
void bench_end_marker(void)
{
    __asm__ volatile("nop");
}

#define CALIBRATION_N 1234567u

int main(void)
{
    uint32_t n = CALIBRATION_N;
    __asm__ volatile("  bl bench_start_marker\n"
                     "1:\n"
                     "  subs %0, %0, #1\n"
                     "  nop\n"
                     "  bne 1b\n"
                     "  bl bench_end_marker\n"
                     : "+l"(n)
                     :
                     : "cc", "r0", "r1", "r2", "r3", "r12", "lr", "memory");
    printf("calibration: N=%u\n", CALIBRATION_N);
    return 0;
}
