"""Symbol and ABI hygiene of model libraries (the `<name>_hygiene_test` of an aot_model_library, or a package's
aot_hygiene_suite).

- Symbols: every global symbol the model's object files define starts with the model's prefix, so any number of
  models link into one image (checked with the toolchain's `nm`).
- ABI: the generated sources and headers use no 64-bit integer or double types, no heap, and no packed-argument
  or DLTensor-style types (comments and string literals are ignored; 64-bit arithmetic lives only in the CRT's
  one named requantization helper).

- User kernels: with --user_symbols (a model whose operators run the application's functions, aot_user_kernel),
  every symbol the model's objects *use* but do not define is the model's own, the CRT's (aot_), one of the named
  user functions, the C library's memory functions, or the toolchain's (leading '_'): the generated code calls
  nothing of the user's it was not told to.

usage: check_hygiene.py NM PREFIX [--objects OBJ...] [--sources SRC...] [--user_symbols NAME...] [--- PREFIX ...]
Each `---` starts the next library (a package's aot_hygiene_suite checks all of its libraries in one process).
Prints every violation and exits 1 if there is any.
"""

import re
import subprocess
import sys

FORBIDDEN = re.compile(
    r"\b(u?int64_t|long\s+long|double|malloc|calloc|realloc|free|DLTensor|TVMValue|TVMArgs|TVMFFIAny)\b"
)
_COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def strip_comments_and_strings(text):
    """Blanks comments and literals but keeps line breaks, so line numbers stay right."""
    return _COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def abi_violations(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_comments_and_strings(f.read())
    for lineno, line in enumerate(code.splitlines(), 1):
        for m in FORBIDDEN.finditer(line):
            yield f"ABI: {path}:{lineno}: uses '{m.group(0)}' (not allowed in generated code)"


def symbol_violations(nm, obj, prefix):
    out = subprocess.run([nm, "-g", "--defined-only", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and not fields[2].startswith(prefix):
            yield f"SYMBOL: {obj} defines global symbol '{fields[2]}', which does not start with '{prefix}'"


_LIBC = ("memcpy", "memset", "memmove")


def undefined_violations(nm, obj, prefix, user_symbols):
    out = subprocess.run([nm, "-u", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name = line.split()[-1] if line.split() else ""
        if not name or name.startswith((prefix, "aot_", "_")) or name in user_symbols or name in _LIBC:
            continue
        yield (
            f"SYMBOL: {obj} uses '{name}', which is neither the model's, the CRT's, nor one of its user "
            f"kernels ({', '.join(sorted(user_symbols)) or 'none'})"
        )


def check_library(nm, prefix, rest):
    """The violations of one library: PREFIX's objects, sources and user symbols (the arguments after PREFIX)."""
    problems, mode = [], None
    objects, user_symbols = [], None
    for arg in rest:
        if arg in ("--objects", "--sources", "--user_symbols"):
            mode = arg
            if arg == "--user_symbols":
                user_symbols = set()
        elif mode == "--objects":
            objects.append(arg)
            problems += symbol_violations(nm, arg, prefix)
        elif mode == "--sources":
            problems += abi_violations(arg)
        elif mode == "--user_symbols":
            user_symbols.add(arg)
    if user_symbols is not None:
        for obj in objects:
            problems += undefined_violations(nm, obj, prefix, user_symbols)
    return problems


def main(argv):
    nm, groups, failed = argv[1], [[]], False
    for arg in argv[2:]:
        if arg == "---":
            groups.append([])
        else:
            groups[-1].append(arg)
    for prefix, *rest in groups:
        problems = check_library(nm, prefix, rest)
        for p in problems:
            print(p)
        if not problems:
            print(f"hygiene: OK (prefix '{prefix}', {len(rest) - 2} files)")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
