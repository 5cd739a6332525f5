/* Built with the toolchain unpacked from the file:// archive. */
#include <stdio.h>

int main(void)
{
    printf("hello from the archived toolchain\n");
    return 0;
}
