"""Providers of aot_rules: one per concept."""

AotFirmwareInfo = provider(
    doc = "A firmware image linked for one board.",
    fields = {
        "elf": "File: the linked ELF.",
        "bin": "File: raw binary image of the loadable sections (objcopy -O binary).",
        "size_report": "File: JSON with text/rodata/data/bss/stack bytes and flash/RAM totals.",
        "board": "string: board name (a key of BOARDS in toolchains/cores.bzl).",
        "core": "string: Cortex-M core of the board.",
        "qemu_machine": "string: QEMU -M value that emulates the board.",
    },
)
