"""Runs a firmware under QEMU with the instruction-counting plugin and returns the count between its markers.

The firmware defines `bench_start_marker` and `bench_end_marker` (`nop; bx lr`); their addresses come from the
ELF's symbol table. The plugin's raw figure includes the start marker's two instructions and the call of the end
marker (bench/calibration_test checks this exactly), which `MARKER_OVERHEAD` removes; what remains is the measured
code with its call setup. A firmware may measure several regions (one per model, aot_perf_test's firmware): each
start marker followed by an end marker is one region, in order. Used by bench/ and aot_perf_test.

With `core` (a core the plugin has a timing model for, `TIMED_CORES`) the plugin also estimates cycles
(toolchains/qemu/cycle_model.c): Run.cycles and Run.classes (instructions per timing class, with the taken
conditional branches) for the last region. An estimate from a per-instruction timing table, not a measurement.
"""

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from toolchains.tools.elf_file import read_symbols

MARKER_OVERHEAD = 3
# The same three instructions in estimated cycles: nop 1, bx lr 1 + refill 2, bl 1 + refill 2 (calibration_test).
CYCLE_MARKER_OVERHEAD = 7
# The cores the timing model has tables for (cycle_model.c).
TIMED_CORES = ("cortex-m4", "cortex-m55")


@dataclass
class Run:
    raw_count: int  # end - start snapshot, as the plugin measured it
    instructions: int  # raw_count - MARKER_OVERHEAD
    exit_code: int
    output: str  # the guest's semihosting stdout
    sites: dict = None  # with `runner`: instructions per runner block address
    regions: list = None  # instructions of every measured region, in order (MARKER_OVERHEAD removed)
    cycles: int = None  # with `core`: estimated cycles of the last region (CYCLE_MARKER_OVERHEAD removed)
    cycle_regions: list = None  # estimated cycles of every region
    classes: dict = None  # with `core`: the last region's instructions per timing class, and "taken_branches"


def marker_addresses(elf: str) -> tuple:
    with open(elf, "rb") as f:
        syms = {s.name: s.address for s in read_symbols(f.read())}
    try:
        return syms["bench_start_marker"], syms["bench_end_marker"]
    except KeyError as e:
        raise RuntimeError(f"{elf} has no marker function {e}; bench firmware must define both markers") from None


def _read_cycles(path: str):
    """(cycles per region, {class: count} of the last region) from the plugin's cycles file."""
    with open(path) as f:
        header, *lines = [line.split() for line in f if line.strip()]
    rows = [[int(x) for x in line] for line in lines]
    if not rows:
        return [], {}
    return [r[0] - CYCLE_MARKER_OVERHEAD for r in rows], dict(zip(header[1:], rows[-1][1:]))


def count(elf: str, machine: str, plugin: str, timeout: float = 600.0, runner=None, loads=(), core=None) -> Run:
    """runner: (lo, hi) address range of the model's run function, or a list of them (several models): the plugin
    then also attributes the measured instructions to the runners' blocks (Run.sites: {block address:
    instructions}, see layers.py). Run.instructions is the last region's count.  loads: (file, address) pairs QEMU
    writes into guest memory before the start (weights blobs, bench/weights_blob).  core: a core of TIMED_CORES to
    estimate cycles for (others: no estimate, Run.cycles None)."""
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
        cycles_file = os.path.join(tmp, "cycles.txt")
        if core in TIMED_CORES:
            cmd[cmd.index("-plugin") + 1] += f",core={core},cycles={cycles_file}"
        sites_file = os.path.join(tmp, "sites.txt")
        runners = [runner] if isinstance(runner, tuple) else list(runner or [])
        if runners:
            arg = cmd.index("-plugin") + 1
            cmd[arg] += "".join(f",runner_lo={lo:#x},runner_hi={hi:#x}" for lo, hi in runners)
            cmd[arg] += f",sites={sites_file}"
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if not os.path.exists(out):
            raise RuntimeError(f"the plugin wrote no count for {elf} (exit {r.returncode}): {r.stderr.strip()}")
        with open(out) as f:
            pairs = [tuple(int(x) for x in line.split()) for line in f if line.strip()]
        sites = {}
        if runners and os.path.exists(sites_file):
            with open(sites_file) as f:
                sites = {int(pc, 16): int(n) for pc, n in (line.split() for line in f if line.strip())}
        cycle_regions, classes = _read_cycles(cycles_file) if core in TIMED_CORES else (None, None)
    at_start, at_end = pairs[-1]
    if at_start == 0 or at_end <= at_start:
        raise RuntimeError(f"{elf}: markers not reached in order (start {at_start}, end {at_end})")
    raw = at_end - at_start
    regions = [e - s - MARKER_OVERHEAD for s, e in pairs]
    cycles = cycle_regions[-1] if cycle_regions else None
    return Run(raw, raw - MARKER_OVERHEAD, r.returncode, r.stdout, sites, regions, cycles, cycle_regions, classes)
