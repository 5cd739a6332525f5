"""Compiler flags for aot_rules' own C (CRT, generated model code, board code): C99, warnings are errors."""

AOT_C_COPTS = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
]
