"""Runs a firmware under QEMU with the instruction-counting plugin and returns the count between its markers.

The firmware defines `bench_start_marker` and `bench_end_marker` (`nop; bx lr`); their addresses come from the
ELF's symbol table. The plugin's raw figure includes the start marker's two instructions and the call of the end
marker (calibration_test checks this exactly), which `MARKER_OVERHEAD` removes; what remains is the measured code
with its call setup.
"""

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from toolchains.tools.elf_file import read_symbols

MARKER_OVERHEAD = 3


@dataclass
class Run:
    raw_count: int  # end - start snapshot, as the plugin measured it
    instructions: int  # raw_count - MARKER_OVERHEAD
    exit_code: int
    output: str  # the guest's semihosting stdout
    sites: dict = None  # with `runner`: instructions per runner block address


def marker_addresses(elf: str) -> tuple:
    with open(elf, "rb") as f:
        syms = {s.name: s.address for s in read_symbols(f.read())}
    try:
        return syms["bench_start_marker"], syms["bench_end_marker"]
    except KeyError as e:
        raise RuntimeError(f"{elf} has no marker function {e}; bench firmware must define both markers") from None


def count(elf: str, machine: str, plugin: str, timeout: float = 600.0, runner: tuple = None, loads=()) -> Run:
    """runner: (lo, hi) address range of the model's run function: the plugin then also attributes the measured
    instructions to the runner's blocks (Run.sites: {block address: instructions}, see layers.py).  loads: (file,
    address) pairs QEMU writes into guest memory before the start (weights blobs, bench/weights_blob)."""
    qemu = os.environ.get("AOT_QEMU") or shutil.which("qemu-system-arm")
    if not qemu:
        raise RuntimeError("qemu-system-arm not found (tools/setup.sh installs it)")
    start, end = marker_addresses(elf)
    with tempfile.TemporaryDirectory(prefix="aot-bench-") as tmp:
        out = os.path.join(tmp, "count.txt")
        cmd = [
            qemu,
            "-M",
            machine,
            "-nographic",
            "-monitor",
            "none",
            "-serial",
            "null",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
            elf,
            "-plugin",
            f"{os.path.abspath(plugin)},start={start:#x},end={end:#x},out={out}",
        ]
        for path, address in loads:
            cmd += ["-device", f"loader,file={os.path.abspath(path)},addr={address},force-raw=on"]
        sites_file = os.path.join(tmp, "sites.txt")
        if runner:
            cmd[cmd.index("-plugin") + 1] += f",runner_lo={runner[0]:#x},runner_hi={runner[1]:#x},sites={sites_file}"
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if not os.path.exists(out):
            raise RuntimeError(f"the plugin wrote no count for {elf} (exit {r.returncode}): {r.stderr.strip()}")
        with open(out) as f:
            at_start, at_end = (int(x) for x in f.read().split())
        sites = {}
        if runner and os.path.exists(sites_file):
            with open(sites_file) as f:
                sites = {int(pc, 16): int(n) for pc, n in (line.split() for line in f if line.strip())}
    if at_start == 0 or at_end <= at_start:
        raise RuntimeError(f"{elf}: markers not reached in order (start {at_start}, end {at_end})")
    raw = at_end - at_start
    return Run(raw, raw - MARKER_OVERHEAD, r.returncode, r.stdout, sites)
