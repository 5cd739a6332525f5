/* The code generation the CRT's speed depends on, stated in its source so that every build of it gets it: Bazel,
 * CMake, Make, an IDE project or plain `arm-none-eabi-gcc -mcpu=<core> -O2` (or -Os), with no flag of ours.
 * Every CRT source file includes this header first, before any function is defined.
 *
 * GCC 12 tunes the Armv8-M Mainline cores (Cortex-M33, M35P, and with Armv8.1-M the M55, M85) with its scheduling
 * pass before register allocation on at -O2.  In the DSP and Helium GEMM loops that pass lengthens live ranges
 * until accumulators spill: the same source built for the M33 had 207 stack accesses in aot_conv2d_s8_dsp_sat against
 * 154 without the pass, and KWS's 1x1 convolutions ran at 1.70 instead of 1.20 instructions per MAC.  The pragma
 * turns the pass off for the functions of this translation unit only (never for the code that includes the CRT's
 * public headers).  -Os has the pass off already and is left exactly as it is (a pragma there would change more
 * than the pass), as is -O0.  On the other Cortex-M cores the pass's results are what the kernels were
 * tuned with, so they keep it.  Other compilers (clang, armclang, IAR) do not read GCC's pragma and are not given it.
 * tests/compiler/test_crt_codegen.py checks that a plain build is the build with -fno-schedule-insns.
 */
#ifndef AOT_SCHED_H
#define AOT_SCHED_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__ARM_ARCH_8M_MAIN__) && defined(__OPTIMIZE__) &&              \
    !defined(__OPTIMIZE_SIZE__)
#pragma GCC optimize("no-schedule-insns")
#endif

#endif /* AOT_SCHED_H */
