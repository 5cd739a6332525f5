"""Per-layer instruction counts of a measured run, and their summary by layer kind (instructions per MAC).

The counting plugin (insn_count_plugin.c, with runner_lo/runner_hi/sites) attributes every instruction of the
measured inference to the block of the model's run function that last executed, i.e. to the kernel call that block
leads to. Here each block is assigned to the first `bl` at or after it in the runner's disassembly, and the calls
are matched in order with the manifest's operators by kernel name (a fused residual ADD calls `<kernel>_add`;
operators that emit no call, such as an aliased RESHAPE, count 0). This needs a runner that calls the CRT
kernels directly: the DSP cores' code. Shape-specialized runners (Cortex-M0/M3) inline their layers, so they get
no per-layer figures.
"""

import bisect
import re
import shutil
import subprocess

from toolchains.tools.elf_file import read_symbols

# C library calls the runner may make for a layer (copies of graph inputs or outputs).
HELPERS = ("memcpy", "memmove", "memset")
# Summary columns: (key, heading).
KINDS = (
    ("conv1x1", "1x1 conv"),
    ("conv", "KxK conv"),
    ("depthwise", "depthwise"),
    ("fc", "fully connected"),
    ("tconv", "transpose conv"),
    ("other", "other ops"),
)


def runner_range(elf: str, prefix: str):
    """(start, end) of `<prefix>_run` in the ELF, Thumb bit clear, or None."""
    with open(elf, "rb") as f:
        for s in read_symbols(f.read()):
            if s.name == prefix + "_run" and s.size:
                lo = s.address & ~1
                return lo, lo + s.size
    return None


def _calls(elf: str, lo: int, hi: int, objdump: str = None) -> list:
    """[(address, callee)] of the `bl` instructions in [lo, hi), in address order."""
    objdump = objdump or shutil.which("arm-none-eabi-objdump")
    if not objdump:
        return []
    text = subprocess.run(
        [objdump, "-d", f"--start-address={lo:#x}", f"--stop-address={hi:#x}", elf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = (re.match(r"\s*([0-9a-f]+):.*\tbl\s+[0-9a-f]+ <([\w.]+)>", line) for line in text.splitlines())
    return [(int(m.group(1), 16), m.group(2)) for m in found if m]


def _kind(op: dict, tensors: dict) -> str:
    if op["kind"] == "CONV_2D":
        shape = tensors[op["inputs"][1]]["shape"]
        return "conv1x1" if len(shape) == 4 and shape[1] == shape[2] == 1 else "conv"
    return {"DEPTHWISE_CONV_2D": "depthwise", "FULLY_CONNECTED": "fc", "TRANSPOSE_CONV": "tconv"}.get(
        op["kind"], "other"
    )


def per_layer(elf: str, runner: tuple, sites: dict, manifest: dict, objdump: str = None):
    """[{index, kind, layer, kernel, entry, kernel_reason, macs, instructions}] for the manifest's operators (entry:
    the function called, e.g. aot_conv2d_s8_dsp_exact; kernel_reason: why a layer is not on its core's best
    kernel, ops/kernel_table.py), or None if the runner's calls cannot be matched with them."""
    calls = _calls(elf, *runner, objdump=objdump)
    if not calls:
        return None
    addrs = [a for a, _ in calls]
    per_call = [0] * (len(calls) + 1)  # the last slot: blocks after the last call (the runner's return)
    for pc, n in sites.items():
        if not runner[0] <= pc < runner[1]:
            continue  # another model's runner (one run measuring several models)
        per_call[bisect.bisect_left(addrs, pc)] += n
    ops = [op for op in manifest["ops"] if op.get("fused_into") is None]
    tensors = {t["index"]: t for t in manifest["tensors"]}
    rows = [
        {
            "index": op["index"],
            "kind": op["kind"],
            "layer": _kind(op, tensors),
            "kernel": op.get("kernel"),
            "entry": op.get("entry"),
            "kernel_reason": op.get("kernel_reason"),
            "macs": op.get("macs", 0),
            "instructions": 0,
        }
        for op in ops
    ]
    i = 0
    for (_, callee), n in zip(calls, per_call):
        if callee in HELPERS and i > 0:
            rows[i - 1]["instructions"] += n  # a copy or fill of the previous layer
            continue
        j = i
        while j < len(rows) and not _matches(rows[j]["kernel"], callee):
            j += 1
        if j == len(rows):
            return None  # a call of no operator's kernel (e.g. a shape-specialized layer): no per-layer figures
        rows[j]["instructions"] += n
        rows[j]["called"] = True
        i = j + 1
    if any(r["kernel"] and not r.pop("called", False) for r in rows):
        return None  # a layer without a call (inlined into the runner): its instructions would land on another
    rows[-1]["instructions"] += per_call[-1]
    return rows


def _matches(kernel, callee: str) -> bool:
    if not kernel:
        return False
    if callee == kernel or callee.startswith(kernel + "_"):
        return True
    # A shape-specialized layer (Cortex-M0/M3) calls the model's `<prefix>_<short><n>` function of its body
    # (compiler/ops/common/specialize.py BODIES; GCC may add a .constprop/.isra suffix).
    from compiler.ops.common.specialize import BODIES

    short = BODIES.get(kernel, (None, None))[1]
    return short is not None and re.fullmatch(rf"\w+_{short}\d+(\.\w+)*", callee) is not None


def by_kind(rows: list) -> dict:
    """{kind key: {macs, instructions}} over the layers."""
    out = {k: {"macs": 0, "instructions": 0} for k, _ in KINDS}
    for r in rows:
        out[r["layer"]]["macs"] += r["macs"]
        out[r["layer"]]["instructions"] += r["instructions"]
    return out
