"""The fuzz target: one model file through the whole compiler, classified as success, clear error or bug.

Shared by the fuzzer (tests/fuzz/fuzz_frontend.py, which runs it in a forked child under a time and memory limit)
and the regression test over the corpus (tests/compiler/test_fuzz_corpus.py). The model goes through
`compiler.driver.compile_model`, i.e. the frontend chosen by the file's extension (`load_model`), every pass, the
memory planner and all of code generation (C, JSON, SVG), exactly as `aotc compile` does minus writing files.

Outcomes:
- "ok": compiled.
- "error": a CompileError (UnsupportedError included) whose message is one non-empty paragraph.
- "bug": anything else: another exception, a CompileError that is not one readable paragraph, or generated C
  that does not compile (when checked).
"""

import os
import re
import subprocess
import traceback

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COMPILER_DIR = os.path.join(REPO, "compiler")
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"]

# The reader's last-resort message for a flatbuffer the bindings cannot walk: a clear error, but one that names
# no field. The fuzzer counts these separately ("vague") so they can be replaced by specific checks.
VAGUE_MARK = "could not be parsed as a TFLite flatbuffer"


def _bug_key(exc: BaseException) -> str:
    """Exception type and the innermost frame inside the compiler (where the fix goes)."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if f.filename.startswith(COMPILER_DIR)] or frames
    where = f"{os.path.relpath(inner[-1].filename, REPO)}:{inner[-1].lineno}" if inner else "?"
    return f"{type(exc).__name__} at {where}"


def normalize_message(msg: str) -> str:
    """An error message with its numbers and quoted names removed: one 'kind' of error per check."""
    msg = re.sub(r"'[^']*'", "''", msg)
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", msg)[:200]


def check_c(files: dict, workdir: str) -> str:
    """Compile the generated .c files with strict flags; returns the compiler's complaint or ''."""
    os.makedirs(workdir, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(workdir, name), "w", encoding="ascii", newline="\n") as f:
            f.write(text)
    srcs = [os.path.join(workdir, n) for n in files if n.endswith(".c")]
    cmd = ["gcc"] + CFLAGS + ["-I", workdir, "-I", os.path.join(REPO, "crt", "include")] + srcs
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return "" if proc.returncode == 0 else (proc.stderr or proc.stdout)[:2000]


def run_target(path: str, c_workdir: str = "") -> tuple:
    """(outcome, detail): ("ok", ""), ("error", message) or ("bug", key + traceback).

    With c_workdir, a successful compile's C is also compiled with gcc (-Werror -pedantic) in that directory.
    """
    from compiler.driver import compile_model
    from compiler.errors import CompileError
    try:
        compiled = compile_model(path, "fz")
    except CompileError as e:
        msg = str(e)
        if not msg or "Traceback" in msg or len(msg) > 2000 or any(ord(c) < 32 or ord(c) == 127 for c in msg):
            return "bug", f"CompileError that is not one readable paragraph: {msg[:500]!r}"
        return "error", msg
    except BaseException as e:  # noqa: BLE001 - everything else is what the fuzzer looks for
        if isinstance(e, KeyboardInterrupt):
            raise
        return "bug", _bug_key(e) + "\n" + "".join(traceback.format_exception(e))[-4000:]
    if c_workdir:
        complaint = check_c(compiled.files, c_workdir)
        if complaint:
            first = complaint.strip().splitlines()[0] if complaint.strip() else ""
            return "bug", "generated C does not compile: " + normalize_message(first) + "\n" + complaint
    return "ok", ""
