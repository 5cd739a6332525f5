/* Smallest useful firmware: proves a board boots, prints through semihosting, uses the FPU if any, and exits 0. */
#include <stdio.h>

int main(void)
{
    volatile float x = 1.5f;
    printf("hello from %s: 1.5 * 2 = %d\n", AOT_BOARD, (int)(x * 2.0f));
    return 0;
}
