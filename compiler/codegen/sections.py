"""Linker input sections of a model's memory, so a firmware can place each kind in a memory region of its board.

The weights carry their section (`.rodata.aot_weights.<prefix>`); the workspace, state and I/O buffers are the
application's, so the header gives macros to define them with (`<PREFIX>_SECTION_WORKSPACE`, `_STATE`, `_IO`).
The names start with `.rodata.` / `.bss.` so any linker script that does not know them still puts them with the
other constants / zeroed data; aot_firmware's script places them per its `placement` (aot_rules/private/
link_layout.bzl frames each kind with __aot_<kind>_start / _end). Where the object format has no such named
sections (not ELF: Mach-O, COFF hosts), the macros are empty.
"""

KIND_SECTIONS = {
    "WEIGHTS": ".rodata.aot_weights",
    "WORKSPACE": ".bss.aot_workspace",
    "STATE": ".bss.aot_state",
    "IO": ".bss.aot_io",
}


def section_macros(prefix: str, kinds) -> list:
    """`#define <PREFIX>_SECTION_<KIND>` for each of `kinds` (keys of KIND_SECTIONS), ELF-only."""
    P = prefix.upper()
    names = [f"{P}_SECTION_{k}" for k in kinds]
    return (
        ["#if defined(__ELF__)"]
        + [f'#define {n} __attribute__((section("{KIND_SECTIONS[k]}.{prefix}")))' for n, k in zip(names, kinds)]
        + ["#else"]
        + [f"#define {n}" for n in names]
        + ["#endif"]
    )
