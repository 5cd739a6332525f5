"""The one table of Cortex-M cores: compiler flags per core, and the boards (QEMU machines) that carry them.

Everything core-specific in aot_rules is derived from CORES: the constraint values (toolchains/BUILD.bazel) and the
ARM cc_toolchains (one per core). BOARDS is the data of the six built-in boards, which toolchains/boards/BUILD.bazel
declares with aot_board (regions, platform, QEMU machine); users declare theirs the same way.
"""

# core -> flags given to every compile and link action for that core (they select the newlib/libgcc multilib).
CORES = {
    "cortex-m0": ["-mcpu=cortex-m0", "-mthumb", "-mfloat-abi=soft"],
    "cortex-m3": ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"],
    "cortex-m4": ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
    "cortex-m7": ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"],
    # A Cortex-M7 whose FPU is single-precision only (STM32F74x/F75x, STM32F72x/F73x): double-precision arithmetic
    # becomes library calls instead of undefined instructions.
    "cortex-m7-sp": ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
    "cortex-m33": ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
    "cortex-m55": ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
}

# core -> the `aotc --target` it generates code for, where that differs from the core's name: the FPU variant of a
# core changes the compiler flags, not the kernels (the generated code and the CRT use single-precision floats).
COMPILER_TARGETS = {
    "cortex-m7-sp": "cortex-m7",
}

# board -> core, QEMU machine and memory map. "flash" holds vectors, code, rodata (weights) and the .data load
# image; "ram" holds .data, .bss, heap and stack. Sizes in bytes.
BOARDS = {
    "microbit": {
        "core": "cortex-m0",
        "qemu_machine": "microbit",
        "description": "BBC micro:bit (nRF51822): Cortex-M0, 256 KiB flash, 16 KiB RAM",
        "flash": (0x00000000, 256 * 1024),
        "ram": (0x20000000, 16 * 1024),
        "stack": 2 * 1024,
    },
    "mps2-an385": {
        "core": "cortex-m3",
        "qemu_machine": "mps2-an385",
        "description": "Arm MPS2 AN385: Cortex-M3, 4 MiB SSRAM1 as code, 4 MiB SSRAM2/3 as RAM",
        # SYSCLK of the AN385 FPGA image (25 MHz, as QEMU's mps2.c models it): the size report's time estimate.
        "clock_hz": 25000000,
        "flash": (0x00000000, 4 * 1024 * 1024),
        "ram": (0x20000000, 4 * 1024 * 1024),
        "stack": 64 * 1024,
    },
    "mps2-an386": {
        "core": "cortex-m4",
        "qemu_machine": "mps2-an386",
        "description": "Arm MPS2 AN386: Cortex-M4 with single-precision FPU and DSP, 4 MiB code, 4 MiB RAM",
        # SYSCLK of the FPGA image (../shared/docs/benchmark-method.md): the size report's time estimate.
        "clock_hz": 25000000,
        "flash": (0x00000000, 4 * 1024 * 1024),
        "ram": (0x20000000, 4 * 1024 * 1024),
        "stack": 64 * 1024,
    },
    "mps2-an500": {
        "core": "cortex-m7",
        "qemu_machine": "mps2-an500",
        "description": "Arm MPS2 AN500: Cortex-M7 with double-precision FPU, 4 MiB code, 4 MiB RAM",
        # SYSCLK of the AN500 FPGA image (25 MHz, as QEMU's mps2.c models it): the size report's time estimate.
        "clock_hz": 25000000,
        "flash": (0x00000000, 4 * 1024 * 1024),
        "ram": (0x20000000, 4 * 1024 * 1024),
        "stack": 64 * 1024,
    },
    "mps2-an505": {
        "core": "cortex-m33",
        "qemu_machine": "mps2-an505",
        "description": "Arm MPS2 AN505 (SSE-200): Cortex-M33 booting secure; SSRAM1 secure alias 0x10000000 " +
                       "(4 MiB) as code, SSRAM2/3 secure alias 0x38000000 (4 MiB) as RAM",
        # SYSCLK of the AN505 (SSE-200) image (20 MHz, QEMU's mps2-tz.c): the size report's time estimate.
        "clock_hz": 20000000,
        "flash": (0x10000000, 4 * 1024 * 1024),
        "ram": (0x38000000, 4 * 1024 * 1024),
        "stack": 64 * 1024,
    },
    "mps3-an547": {
        "core": "cortex-m55",
        "qemu_machine": "mps3-an547",
        "description": "Arm MPS3 AN547 (SSE-300): Cortex-M55 with MVE; 512 KiB ITCM as code, 512 KiB DTCM as RAM",
        # SYSCLK of the AN547 (SSE-300) image (32 MHz, QEMU's mps2-tz.c): the size report's time estimate.
        "clock_hz": 32000000,
        "flash": (0x00000000, 512 * 1024),
        "ram": (0x20000000, 512 * 1024),
        "stack": 32 * 1024,
    },
}
