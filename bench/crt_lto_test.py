"""The CRT and generated code stay correct under link-time optimization (issue 29).

With -flto the compiler sees the kernels and the generated runner as one program, so any access of an object
through an incompatible pointer type (type punning the strict-aliasing rules forbid) can be reordered or dropped.
Each image here is a bench firmware built with plain flags and -flto (bench/plain.bzl, "O2_lto"): the generated C,
the whole CRT and the bench main compiled and linked with -flto -O2. The guest compares its outputs with TFLite
Micro's reference outputs byte for byte and exits non-zero on a difference; this test runs each image under QEMU
and requires exit code 0 and the main's `exact=1` line.

    crt_lto_test.py --image NAME|MACHINE|ELF ...
"""

import argparse
import os
import shutil
import subprocess
import sys


def run(machine: str, elf: str, timeout: float = 120.0):
    qemu = os.environ.get("AOT_QEMU") or shutil.which("qemu-system-arm")
    if not qemu:
        raise SystemExit("crt_lto_test: qemu-system-arm not found (tools/setup.sh installs it)")
    cmd = [qemu, "-M", machine, "-nographic", "-monitor", "none", "-serial", "null"]
    cmd += ["-semihosting-config", "enable=on,target=native", "-kernel", elf]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", action="append", required=True, help="NAME|MACHINE|ELF")
    args = ap.parse_args(argv)
    failed = []
    for image in args.image:
        name, machine, elf = image.split("|")
        proc = run(machine, elf)
        exact = "exact=1" in proc.stdout
        print(f"crt_lto_test: {name} on {machine}: exit {proc.returncode}, {'bit-exact' if exact else 'NOT bit-exact'}")
        if proc.returncode != 0 or not exact:
            failed.append(name + "@" + machine)
            sys.stdout.write(proc.stdout[-2000:] + proc.stderr[-2000:])
    if failed:
        print("crt_lto_test: FAILED with -flto: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
