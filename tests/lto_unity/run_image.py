"""Runs one -flto, unity-CRT image of many models' tests under QEMU (tests/lto_unity/lto_unity.bzl).

Passes when QEMU exits 0 and the runner's summary says every model matched; otherwise prints each mismatch line the
models' tests wrote (`<prefix>: case C output 'F'[I]: got G, want W`) and the models that failed.

    run_image.py --machine mps2-an386 [--timeout S] IMAGE.elf
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--machine", required=True)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("elf")
    args = ap.parse_args(argv)
    qemu = os.environ.get("AOT_QEMU") or shutil.which("qemu-system-arm")
    if not qemu:
        raise SystemExit("run_image: qemu-system-arm not found (tools/setup.sh installs it)")
    cmd = [qemu, "-M", args.machine, "-nographic", "-monitor", "none", "-serial", "null"]
    cmd += ["-semihosting-config", "enable=on,target=native", "-kernel", args.elf]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        print(out[-4000:])
        print(f"run_image: QEMU did not finish within {args.timeout:.0f} s")
        return 1
    summary = re.search(r"(\d+) of (\d+) models match the reference", proc.stdout)
    lines = proc.stdout.splitlines()
    # Each model's own summary, and every line that is not one (mismatches, failed runs, FAILED: <prefix>).
    for line in lines:
        if not line.startswith("aot_stack:"):
            print(line)
    ok = proc.returncode == 0 and summary is not None and summary.group(1) == summary.group(2)
    if not ok:
        failed = [line[len("FAILED: ") :] for line in lines if line.startswith("FAILED: ")]
        sys.stdout.write(proc.stderr[-2000:])
        print(f"run_image: {args.elf}: exit {proc.returncode}; not bit-exact with -flto and a unity CRT: {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
