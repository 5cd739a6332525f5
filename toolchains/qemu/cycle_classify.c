/* Host tool for the timing model's tests: `cycle_classify CORE HEX...` prints, for each instruction given as its
 * halfwords in hex (`4770`, or `f8d1 0004` as one argument `f8d10004`), its class, its cycles in straight-line code
 * after the previous argument, and its extra cycles when taken; the same code the QEMU plugin runs (cycle_model.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_model.h"

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cycle_classify CORE HEX...\n");
        return 2;
    }
    const struct cy_core* core = cy_core_by_name(argv[1]);
    if (core == NULL) {
        fprintf(stderr, "cycle_classify: unknown core '%s' (cortex-m4, cortex-m55)\n", argv[1]);
        return 2;
    }
    struct cy_insn prev, cur;
    int have_prev = 0;
    for (int i = 2; i < argc; ++i) {
        size_t len = strlen(argv[i]);
        unsigned long v = strtoul(argv[i], NULL, 16);
        if (len == 8) {
            cy_decode((uint32_t)(v >> 16), (uint32_t)(v & 0xFFFFu), 4, &cur);
        } else {
            cy_decode((uint32_t)v, 0, 2, &cur);
        }
        printf("%s %s %d %d\n", argv[i], cy_class_name(cur.cls), cy_cycles(core, &cur, have_prev ? &prev : NULL),
               cy_is_conditional(&cur) ? cy_taken_extra(core, &cur) : 0);
        prev = cur;
        have_prev = 1;
    }
    return 0;
}
