/* aot_mve_dot_blocks1 (declared in mve_s8.h), one pixel against blocks of 4 channels, in a unit of its own: the
 * Helium convolution's and fully connected layer's units call it, and without -ffunction-sections an image with both
 * links it once.  Nothing without Helium.  (The body is here, not in the header, so that a unity build of the CRT,
 * which includes mve_s8.h once, still defines it.)
 */
#include "aot_sched.h"

#include "mve_s8.h"

#if defined(__ARM_FEATURE_MVE)
__attribute__((noinline)) void aot_mve_dot_blocks1(const int8_t* x, const int8_t* w, int32_t passes, int32_t nb,
                                                   int32_t* sums)
{
    register int32_t a0 __asm__("r0");
    register int32_t a1 __asm__("r2");
    register int32_t a2 __asm__("r4");
    register int32_t a3 __asm__("r6");
    register int32_t lc __asm__("lr");
    const int8_t* xp;
    const int32_t rest = passes - 1;
    __asm__ volatile("2:\n\t"
                     "mov %[xp], %[x]\n\t"
                     "vldrb.8 q4, [%[xp]], #16\n\t" AOT_MVE_LOAD_W16 "vmladav.s8 %[a0], q4, q0\n\t"
                     "vmladav.s8 %[a1], q4, q1\n\t"
                     "vmladav.s8 %[a2], q4, q2\n\t"
                     "vmladav.s8 %[a3], q4, q3\n\t"
                     "wls lr, %[rest], 4f\n\t"
                     "1:\n\t"
                     "vldrb.8 q4, [%[xp]], #16\n\t" AOT_MVE_LOAD_W16 "vmladava.s8 %[a0], q4, q0\n\t"
                     "vmladava.s8 %[a1], q4, q1\n\t"
                     "vmladava.s8 %[a2], q4, q2\n\t"
                     "vmladava.s8 %[a3], q4, q3\n\t"
                     "le lr, 1b\n\t"
                     "4:\n\t"
                     "stmia %[s]!, {%[a0], %[a1], %[a2], %[a3]}\n\t"
                     "subs %[nb], %[nb], #1\n\t"
                     "bne 2b"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [lc] "=&r"(lc), [xp] "=&r"(xp),
                       [w] "+r"(w), [s] "+r"(sums), [nb] "+r"(nb)
                     : [x] "r"(x), [rest] "r"(rest)
                     : "q0", "q1", "q2", "q3", "q4", "memory", "cc");
}
#endif
