"""Measures one bench firmware (model x board), or explains why a model does not fit a board.

A measured row holds:
- instructions of one inference after a warm-up run (qemu_count: exact and deterministic; not cycles);
- on the cores the timing model covers (M4, M55), estimated cycles of the same run and its instructions per timing
  class (toolchains/qemu/cycle_model.c: an estimate from Arm's published instruction timings, not silicon);
- flash: code of the model's generated runner (its prefix's symbols) and of the CRT kernels it links (`aot_*`
  symbols) -- what TFLite Micro's "library code" figure compares to -- and, apart, startup + libc + the bench
  main; the model's weight bytes beside the weights the .tflite file holds;
- RAM: the planned workspace, the measured run's stack high-water mark (the bench main paints the free stack
  before the run and scans it after; the image report's static worst case is kept beside it) and the static
  data (.data + .bss) of the model and the CRT;
- the AOT compiler's time for the model: in-process (imports done, median of three) and as one `aotc compile`
  process (Python start and imports included: what a Bazel action costs).
"""

import json
import re
import statistics
import subprocess
import sys
import tempfile
import time

from toolchains.tools import layers
from toolchains.tools.qemu_count import count
from compiler import driver
from compiler.errors import UnsupportedError
from compiler.report import cost_model
from toolchains.tools.image_report import CRT, REST


def model_file_weight_bytes(model: str) -> int:
    """Bytes of constant tensor data in the model file (what the compiled weights are compared with)."""
    graph = driver.load_model(model)
    return sum(t.data.nbytes for t in graph.tensors if t.data is not None)


def compile_seconds(model: str, prefix: str, core: str) -> dict:
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        driver.compile_model(model, prefix, core)
        times.append(time.perf_counter() - t0)
    with tempfile.TemporaryDirectory(prefix="aot-bench-") as out:
        t0 = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "compiler",
                "compile",
                model,
                "--quiet",
                "--prefix",
                prefix,
                "--out_dir",
                out,
                "--target",
                core,
            ],
            check=True,
        )
        process = time.perf_counter() - t0
    return {"compile_seconds": round(statistics.median(times), 3), "compile_process_seconds": round(process, 3)}


def gcc_version(elf: str) -> str:
    """The compiler that built the image, from its .comment section (GCC writes "GCC: (...) version")."""
    with open(elf, "rb") as f:
        found = re.search(rb"GCC: \([^)]*\) [^\0]*", f.read())
    return found.group(0).decode() if found else "unknown"


def _guest_fields(output: str) -> dict:
    """The bench main's last line, `bench: rc=R exact=E run_stack=S`, as a dict."""
    lines = [line for line in output.splitlines() if line.startswith("bench:")]
    return dict(kv.split("=", 1) for kv in lines[-1].split()[1:]) if lines else {}


def measure(entry: str, plugin: str) -> dict:
    """The row of one `--entry=NAME|BOARD|CORE|MACHINE|MODEL|ELF` (see bench.bzl)."""
    name, board, core, machine, model, elf = entry.split("|")
    with open(elf[: -len(".elf")] + ".size.json") as f:
        image = json.load(f)
    with open(elf[: -len(".elf")] + ".model.json") as f:  # the model as compiled for this board
        manifest = json.load(f)
    owners = {o["name"]: o for o in image["owners"]}
    mine, crt, rest = owners[name], owners[CRT], owners[REST]
    runner = layers.runner_range(elf, name)
    run = count(elf, machine, plugin, runner=runner, core=core)
    fields = _guest_fields(run.output)
    per_layer = layers.per_layer(elf, runner, run.sites, manifest) if runner and run.sites else None
    if per_layer:
        # The work the cost model prices each layer by (compiler/report/cost_model.py; bench/calibrate.py).
        ops = {op["index"]: op for op in manifest["ops"]}
        tensors = {t["index"]: t for t in manifest["tensors"]}
        for r in per_layer:
            r["unit"], r["work"], r["band"] = cost_model.layer_work(ops[r["index"]], tensors)
    row = {
        "model": name,
        "board": board,
        "core": core,
        "macs": manifest["macs"],
        "instructions": run.instructions,
        # Estimated cycles (None on a core without a timing model) and the instructions per timing class.
        "cycles": run.cycles,
        "cycle_classes": run.classes,
        "exit_code": run.exit_code,
        "outputs_exact": fields.get("exact") == "1" and fields.get("rc") == "0",
        # Flash.
        "code_bytes": mine["code"] + crt["code"],
        "runner_code_bytes": mine["code"],
        "crt_code_bytes": crt["code"],
        "startup_libc_code_bytes": rest["code"],
        "weight_bytes": manifest["weight_bytes"],
        "param_bytes": manifest["param_bytes"],
        "model_file_weight_bytes": model_file_weight_bytes(model),
        "constants_in_image": mine["constants"] + crt["constants"],
        "image_flash_bytes": image["flash_total"],
        # RAM.
        "workspace_bytes": manifest["workspace"]["size"],
        "workspace_lower_bound": manifest["workspace"]["lower_bound"],
        # Stateful models (LSTM, SVDF): their variable tensors, in a buffer of their own kept between runs.
        "state_bytes": manifest.get("state", {}).get("size", 0),
        "run_stack_bytes": int(fields.get("run_stack", -1)),
        "run_stack_static_bound": mine.get("run_stack"),
        "static_data_bytes": mine["ram"] + crt["ram"],
        "io_bytes": sum(t["bytes"] for t in manifest["inputs"] + manifest["outputs"]),
        "image_ram_bytes": image["ram_total"],
        "gcc": gcc_version(elf),
        # Instructions per layer (None where the runner's calls cannot be attributed, see layers.py).
        "layers": per_layer,
        "by_kind": layers.by_kind(per_layer) if per_layer else None,
        # The model's work by kernel and shape class, and the cost model's estimate from the committed table.
        "work_vector": cost_model.work_vector(manifest),
        "estimate": (cost_model.estimate(manifest, core) or {}).get("total"),
    }
    row.update(compile_seconds(model, name, core))
    return row


def fit(unfit: str, boards: dict) -> dict:
    """Why `--unfit=NAME|BOARD|CORE|MODEL` is not built: what the model needs against what the board has.

    The need is a lower bound: the workspace, the input and output buffers and the stack the board's linker script
    reserves (RAM); weights and parameters (flash). If even the bound exceeds the board, the model cannot fit.
    A model the compiler refuses (an operator it does not support) is reported with the compiler's reason."""
    name, board, core, model = unfit.split("|")
    try:
        m = driver.compile_model(model, name, core).manifest
    except UnsupportedError as e:
        # The first sentence names the operators; the list of supported ones is in docs/coverage.md.
        return {
            "model": name,
            "board": board,
            "core": core,
            "fits": False,
            "unsupported": True,
            "reason": str(e).split(" Supported ")[0],
        }
    b = boards[board]
    io = sum(t["bytes"] for t in m["inputs"] + m["outputs"])
    state = m.get("state", {}).get("size", 0)
    ram_need = m["workspace"]["size"] + state + io + b["stack_bytes"]
    flash_need = m["weight_bytes"] + m["param_bytes"]
    reasons = []
    if ram_need > b["ram_bytes"]:
        with_state = f" + state {state:,} B" if state else ""  # stateless models: no state term
        reasons.append(
            f"RAM: workspace {m['workspace']['size']:,} B{with_state} + inputs/outputs {io:,} B + stack "
            f"{b['stack_bytes']:,} B = {ram_need:,} B > {b['ram_bytes']:,} B"
        )
    if flash_need > b["flash_bytes"]:
        reasons.append(f"flash: weights and parameters {flash_need:,} B > {b['flash_bytes']:,} B")
    return {
        "model": name,
        "board": board,
        "core": core,
        "fits": not reasons,
        "reason": "; ".join(reasons)
        or f"the lower bound ({ram_need:,} B RAM, {flash_need:,} B flash) fits: "
        "build it (bench/BUILD.bazel lists it as unfit)",
    }
