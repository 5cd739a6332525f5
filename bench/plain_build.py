"""Builds a bench firmware the way a CMake, Make or IDE user builds the generated C: no flag of this project.

Every C file is compiled with `arm-none-eabi-gcc <the core's -mcpu/-mthumb/-mfloat-abi/-mfpu> <-O2|-Os> -std=c99`
and include directories only (no -ffunction-sections, no warning flags, no per-core tuning); the CRT's files go into
an archive (a user's `add_library(aot_crt ...)`), so the image links the kernels the model calls, one file each.
The link needs the board's startup, linker script and newlib's semihosting (output and exit under QEMU), as
`aot_firmware` gives them.  bench/plain.bzl declares one such image per (model, board); the runner measures it
like any bench image (bench/README.md, "Plain builds").

Link-time optimization of every model test (the CRT as one translation unit, -flto -O2) is tests/lto_unity's.
"""

import argparse
import os
import shutil
import subprocess
import sys


def _run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
        raise SystemExit(proc.returncode)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gcc", default="arm-none-eabi-gcc")
    ap.add_argument("--ar", default="arm-none-eabi-ar")
    ap.add_argument("--core_flags", required=True, help="the core's flags, space-separated (toolchains/cores.bzl)")
    ap.add_argument("--opt", required=True, choices=["-O2", "-Os"])
    ap.add_argument("--linker_script", help="link an ELF with this script (else only archive the CRT's files)")
    ap.add_argument("--crt", default="", help="the CRT archive this script wrote (a user's add_library)")
    ap.add_argument("--out", required=True, help="the ELF or, without --linker_script, the CRT archive to write")
    ap.add_argument("files", nargs="+", help=".c and .h files: CRT (under crt/), model, reference data, main, startup")
    args = ap.parse_args(argv)

    files = [os.path.abspath(f) for f in args.files]
    work = args.out + ".d"
    os.makedirs(work, exist_ok=True)
    # The model's, the reference data's and the main's files (generated, in Bazel's output tree) are copied into a
    # directory of this image's own and compiled there: a directory of the output tree also holds other builds'
    # files of the same names (the same model's header for another core), which a quoted #include would find
    # first beside the including file, and which only a sandbox would hide.
    own = os.path.join(work, "src")
    shutil.rmtree(own, ignore_errors=True)
    os.makedirs(own)
    local = []
    for f in files:
        if "/crt/" in f:
            local.append(f)
            continue
        target = os.path.join(own, os.path.basename(f))
        if os.path.exists(target):
            sys.exit(f"plain_build: two input files named {os.path.basename(f)}")
        shutil.copyfile(f, target)
        local.append(target)
    headers = [f for f in local if f.endswith(".h")]
    # With --crt the CRT is the archive already built; its sources are not compiled again.
    sources = [f for f in local if f.endswith(".c") and not (args.crt and "/crt/src/" in f)]
    includes = [own]
    # The CRT's public headers as a user adds them: crt/include (its private headers sit beside its sources).
    includes += sorted({h[: h.index("/crt/include/") + len("/crt/include")] for h in headers if "/crt/include/" in h})
    flags = args.core_flags.split() + [args.opt, "-std=c99"] + [f"-I{d}" for d in includes]
    ar = args.ar

    crt_objs, objs = [], []
    for n, src in enumerate(sorted(sources)):
        obj = os.path.join(work, f"{n}_{os.path.basename(src)[:-2]}.o")
        _run([args.gcc, *flags, "-c", src, "-o", obj])
        (crt_objs if "/crt/src/" in src else objs).append(obj)
    if not args.linker_script:
        _run([ar, "rcs", args.out, *crt_objs])
        return 0
    lib = args.crt
    if crt_objs:
        lib = os.path.join(work, "libaot_crt.a")
        if os.path.exists(lib):
            os.remove(lib)
        _run([ar, "rcs", lib, *crt_objs])
    link = args.core_flags.split() + [args.opt, "-nostartfiles", "--specs=rdimon.specs", "-T", args.linker_script]
    _run([args.gcc, *link, *objs, lib, "-lm", "-o", args.out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
