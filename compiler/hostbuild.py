"""Build and run generated C on the host with the system C compiler.

Used by `run`, `testgen`-style checks and the tests.  The CRT is located via
$AOT_CRT_DIR, else next to this package in a checkout (<repo>/crt), else inside the installed package
(aot_compiler/_crt, which the wheel carries).  `python -m compiler.hostbuild --archive OUT.a` compiles the CRT
once into a static archive with a key file beside it; when such an archive sits in the CRT directory (Bazel puts
`//crt:host_archive` there in every test's runfiles) and its key matches this compiler, flags and CRT sources, the
tests link it instead of compiling the CRT again in each of their processes.
"""

import argparse
import atexit
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from .errors import CompileError

CFLAGS = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]


def crt_dir() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("AOT_CRT_DIR"):
        candidates = [os.environ["AOT_CRT_DIR"]]
    else:
        candidates = [os.path.join(os.path.dirname(here), "crt"), os.path.join(here, "_crt")]
    for d in candidates:
        if os.path.isdir(os.path.join(d, "include", "aot")):
            return d
    raise CompileError(
        f"C runtime not found at {' or '.join(repr(d) for d in candidates)} (expected include/aot/ inside). "
        "An installed aot-rules wheel carries it; in a checkout it is crt/. Set AOT_CRT_DIR to a crt/ directory "
        "(e.g. one written by `aotc crt --out DIR`) to use another."
    )


def crt_sources() -> list:
    d = crt_dir()
    return sorted(glob.glob(os.path.join(d, "src", "**", "*.c"), recursive=True))


def compiler_command() -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise CompileError("No C compiler found: install `cc` (gcc or clang) or set $CC.")
    return cc


# Compiled CRT objects, one set per (compiler, CRT contents) for the life of this process: a test run builds
# hundreds of small models, and recompiling the whole CRT for each one dominated its time.
_crt_cache = {}


# The key of the CRT files as they were last hashed, per (compiler, file list with sizes and mtimes): a test process
# builds thousands of models, and reading and hashing every CRT file for each one cost ~40 ms a build. An entry is
# kept only when every file is older than _RACY_NS, so a file rewritten within one timestamp tick (same size, same
# mtime) is never taken for unchanged (git's "racily clean" rule).
_key_memo = {}
_RACY_NS = 2_000_000_000


def _crt_key(cc: str) -> str:
    # Paths relative to the CRT directory and the compiler's real path: the key must be the same in the Bazel action
    # that builds the archive and in the tests' runfiles, and change with any CRT file, flag or compiler.
    d = crt_dir()
    paths = sorted(glob.glob(os.path.join(d, "**", "*.[ch]"), recursive=True))
    stats = [os.stat(p) for p in paths]
    memo_key = (os.path.realpath(cc), d, tuple((p, st.st_size, st.st_mtime_ns) for p, st in zip(paths, stats)))
    if memo_key in _key_memo:
        return _key_memo[memo_key]
    h = hashlib.sha256(" ".join([memo_key[0]] + CFLAGS).encode())
    for path in paths:
        h.update(os.path.relpath(path, d).encode())
        with open(path, "rb") as f:
            h.update(f.read())
    key = h.hexdigest()
    if time.time_ns() - max((st.st_mtime_ns for st in stats), default=0) > _RACY_NS:
        _key_memo[memo_key] = key
    return key


HOST_ARCHIVE = "libaot_crt_host.a"


def _prebuilt_archive(key: str):
    archive = os.path.join(crt_dir(), HOST_ARCHIVE)
    try:
        with open(archive + ".key") as f:
            return archive if f.read().strip() == key else None
    except OSError:
        return None


def user_cache_dir() -> str:
    """Where host builds keep what outlives a process: $AOT_CACHE_DIR, else $XDG_CACHE_HOME/aot_rules, else
    ~/.cache/aot_rules."""
    if os.environ.get("AOT_CACHE_DIR"):
        return os.environ["AOT_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "aot_rules")


def _cached_archive_path(key: str) -> str:
    return os.path.join(user_cache_dir(), "host-crt", key[:32], HOST_ARCHIVE)


def _store_archive(key: str, objs: list) -> None:
    """Keeps the CRT objects as an archive in the user's cache, for the next process (`aotc run` compiled the whole
    CRT, ~10 s of CPU, in every invocation). Written beside its final name and renamed, so a concurrent process sees
    a whole archive or none; a cache that cannot be written is only a cache."""
    path = _cached_archive_path(key)
    ar = shutil.which("ar")
    if ar is None or os.path.exists(path):
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        if subprocess.run([ar, "rcs", tmp] + objs, capture_output=True).returncode == 0:
            os.replace(tmp, path)
        elif os.path.exists(tmp):
            os.remove(tmp)
    except OSError:
        pass


def crt_objects(prebuilt: bool = True) -> list:
    """The CRT compiled to object files with CFLAGS (cached per process; rebuilt if any CRT file changes), or the
    matching prebuilt archive when there is one and PREBUILT allows it: the one in the CRT directory, else the one
    an earlier process left in the user's cache (user_cache_dir(), keyed like the prebuilt one)."""
    cc = compiler_command()
    key = _crt_key(cc)
    archive = _prebuilt_archive(key) if prebuilt else None
    if archive:
        return [archive]
    if prebuilt and key not in _crt_cache and os.path.isfile(_cached_archive_path(key)):
        return [_cached_archive_path(key)]
    if key not in _crt_cache:
        out = tempfile.mkdtemp(prefix="aotc-crt-")
        atexit.register(shutil.rmtree, out, True)
        include = os.path.join(crt_dir(), "include")
        jobs = [(src, os.path.join(out, f"crt_{i}.o")) for i, src in enumerate(crt_sources())]

        def compile_one(job):
            cmd = [cc] + CFLAGS + ["-I", include, "-c", job[0], "-o", job[1]]
            return cmd, subprocess.run(cmd, capture_output=True, text=True)

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for cmd, proc in pool.map(compile_one, jobs):
                _check_build(cmd, proc)
        _crt_cache[key] = [obj for _, obj in jobs]
        if prebuilt:
            _store_archive(key, _crt_cache[key])
    return list(_crt_cache[key])


def _check_build(cmd: list, proc: subprocess.CompletedProcess) -> None:
    if proc.returncode != 0:
        raise RuntimeError(
            "C compilation of generated code failed (this is a compiler bug):\n"
            + " ".join(cmd)
            + "\n"
            + proc.stdout
            + proc.stderr
        )


def build_executable(c_files: list, include_dirs: list, out_path: str) -> None:
    cmd = [compiler_command()] + CFLAGS
    for d in include_dirs + [os.path.join(crt_dir(), "include")]:
        cmd += ["-I", d]
    cmd += list(c_files) + crt_objects() + ["-o", out_path, "-lm"]
    _check_build(cmd, subprocess.run(cmd, capture_output=True, text=True))


def build_one_unit_executable(c_files: list, include_dirs: list, out_path: str) -> None:
    """build_executable of C_FILES as one translation unit (a file beside OUT_PATH that #includes them): one compiler
    and assembler run instead of one per file, for test suites that build hundreds of small models (a generated
    model's files and its harness compile together, as compiler/host_batch.py's units show)."""
    unity = out_path + "_unit.c"
    with open(unity, "w") as f:
        f.write("".join(f'#include "{os.path.abspath(c)}"\n' for c in c_files))
    build_executable([unity], include_dirs, out_path)


def run_executable(path: str, args: list, timeout: float = 300.0) -> subprocess.CompletedProcess:
    return subprocess.run([path] + list(args), capture_output=True, text=True, timeout=timeout)


def write_archive(out_path: str) -> None:
    """The CRT compiled with CFLAGS into the static archive OUT_PATH, and its key into OUT_PATH.key."""
    cc = compiler_command()
    objs = crt_objects(prebuilt=False)
    if os.path.exists(out_path):
        os.remove(out_path)
    cmd = ["ar", "rcs", out_path] + objs
    _check_build(cmd, subprocess.run(cmd, capture_output=True, text=True))
    with open(out_path + ".key", "w") as f:
        f.write(_crt_key(cc) + "\n")


def main(argv) -> int:
    parser = argparse.ArgumentParser(description="Compile the CRT for the host into a static archive.")
    parser.add_argument("--archive", required=True, help="output .a (its key is written beside it, OUT.key)")
    write_archive(parser.parse_args(argv).archive)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
