"""Build and run generated C on the host with the system C compiler.

Used by `run`, `testgen`-style checks and the tests.  The CRT is located via
$AOT_CRT_DIR or next to this package (<repo>/crt).
"""

import glob
import os
import shutil
import subprocess

from .errors import CompileError

CFLAGS = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]


def crt_dir() -> str:
    d = os.environ.get("AOT_CRT_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "crt")
    if not os.path.isdir(os.path.join(d, "include", "aot")):
        raise CompileError(
            f"C runtime not found at '{d}' (expected include/aot/ inside). Set AOT_CRT_DIR to "
            "the crt/ directory of aot_rules."
        )
    return d


def crt_sources() -> list:
    d = crt_dir()
    return sorted(glob.glob(os.path.join(d, "src", "**", "*.c"), recursive=True))


def compiler_command() -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise CompileError("No C compiler found: install `cc` (gcc or clang) or set $CC.")
    return cc


def build_executable(c_files: list, include_dirs: list, out_path: str) -> None:
    cmd = [compiler_command()] + CFLAGS
    for d in include_dirs + [os.path.join(crt_dir(), "include")]:
        cmd += ["-I", d]
    cmd += list(c_files) + crt_sources() + ["-o", out_path, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            "C compilation of generated code failed (this is a compiler bug):\n"
            + " ".join(cmd) + "\n" + proc.stdout + proc.stderr
        )


def run_executable(path: str, args: list, timeout: float = 300.0) -> subprocess.CompletedProcess:
    return subprocess.run([path] + list(args), capture_output=True, text=True, timeout=timeout)
