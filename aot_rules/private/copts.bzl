"""Compiler flags for aot_rules' own C (CRT, generated model code, board code): C99, warnings are errors."""

AOT_C_COPTS = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
]

# Host-only AddressSanitizer + UndefinedBehaviorSanitizer build of generated code and the CRT (any finding aborts).
AOT_SANITIZER_OPTS = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
]
