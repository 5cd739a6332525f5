/*
 * The two hooks through which a firmware built for a board with `semihosting = False` talks to the world.
 *
 * The default start-up of such a board (toolchains/boards:startup_bare) links newlib's system calls to weak
 * stubs (bare_syscalls.c): printf() and friends end in aot_putchar(), exit() and a fault report in aot_exit().
 * Both are weak and do nothing useful by default (characters are dropped, aot_exit() sleeps forever), so an image
 * links and runs on any chip; define them in your own source to send output to a UART and to reset or signal the
 * exit code. Declaring them here lets that source check its signatures.
 */
#ifndef AOT_BOARD_IO_H
#define AOT_BOARD_IO_H

/* One byte of stdout/stderr (newlib's _write calls it per byte). */
void aot_putchar(unsigned char c);

/* exit(code), a return from main() or a fault (code 134). Must not return. */
void aot_exit(int code) __attribute__((noreturn));

#endif
