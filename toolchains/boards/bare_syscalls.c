/*
 * newlib system calls for boards without semihosting (aot_board(semihosting = False)): every stub is weak, so a
 * firmware's own _write, _sbrk, ... wins; output and exit go through the aot_putchar / aot_exit hooks
 * (aot_board_io.h), also weak. Only what newlib's stdio, malloc and exit reach is here: reads return end of file,
 * files other than stdin/stdout/stderr do not exist.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "aot_board_io.h"

/* The linker script's heap: from `end` (after .bss) to the bottom of the stack. */
extern char end;
extern char __stack_bottom;

int _close(int fd);
int _fstat(int fd, struct stat* st);
int _getpid(void);
int _isatty(int fd);
int _kill(int pid, int sig);
int _lseek(int fd, int offset, int whence);
int _read(int fd, char* buf, int len);
int _write(int fd, const char* buf, int len);
void* _sbrk(ptrdiff_t increment);
void _exit(int code);

__attribute__((weak)) void aot_putchar(unsigned char c)
{
    (void)c;
}

__attribute__((weak, noreturn)) void aot_exit(int code)
{
    (void)code;
    for (;;) {
        __asm__ volatile("wfi");
    }
}

__attribute__((weak)) int _write(int fd, const char* buf, int len)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    for (int i = 0; i < len; ++i) aot_putchar((unsigned char)buf[i]);
    return len;
}

__attribute__((weak)) int _read(int fd, char* buf, int len)
{
    (void)fd;
    (void)buf;
    (void)len;
    return 0;
}

__attribute__((weak)) void* _sbrk(ptrdiff_t increment)
{
    static char* brk = &end;
    if (increment > &__stack_bottom - brk || increment < &end - brk) {
        errno = ENOMEM;
        return (void*)-1;
    }
    char* previous = brk;
    brk += increment;
    return previous;
}

__attribute__((weak)) int _close(int fd)
{
    (void)fd;
    errno = EBADF;
    return -1;
}

__attribute__((weak)) int _fstat(int fd, struct stat* st)
{
    (void)fd;
    st->st_mode = S_IFCHR;
    return 0;
}

__attribute__((weak)) int _isatty(int fd)
{
    return fd >= 0 && fd <= 2;
}

__attribute__((weak)) int _lseek(int fd, int offset, int whence)
{
    (void)fd;
    (void)offset;
    (void)whence;
    return 0;
}

__attribute__((weak)) int _getpid(void)
{
    return 1;
}

__attribute__((weak)) int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

__attribute__((weak, noreturn)) void _exit(int code)
{
    aot_exit(code);
}
