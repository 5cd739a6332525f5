/* A firmware that fails on purpose: the QEMU runner must report exit code 1 as a failure. */
#include <stdio.h>

int main(void)
{
    printf("exiting with 1 on purpose\n");
    return 1;
}
