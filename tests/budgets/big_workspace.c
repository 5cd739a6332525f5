/* A workspace buffer larger than the DTCM that //tests/boards:m7_tcm places workspaces in (64 KB): the link must
 * fail with aot_rules' paragraph about that region, not only ld's "region `DTCM' overflowed". */
#include <stdint.h>

static uint8_t big_workspace[80 * 1024] __attribute__((section(".bss.aot_workspace.big"), aligned(16)));

int main(void)
{
    big_workspace[sizeof big_workspace - 1u] = 1u;
    return (int)big_workspace[0];
}
