"""The cost model's calibration sweep (`bazel run //bench:sweep`): one QEMU run per sweep image, a row per model.

Each image (bench/BUILD.bazel, aot_perf_firmware) runs the first inference of every one-layer sweep model
(bench/sweep/make_sweep_models.py) between the counting markers, in order; the plugin reports one region per model.
A model has one layer, so its region is that layer's count, on every core (the shape-specialized Cortex-M3 runner
included, whose inlined layers the per-layer attribution of toolchains/tools/layers.py cannot split). The rows have
the bench rows' fields the calibration reads (bench/calibrate.py: model, board, core, instructions, layers with
their work and shape class, work_vector), plus the layer's operator and tensors (`manifest`), so the calibration can
price the work again when the shape classes change. Inputs are seeded draws, not a reference case: `run_ok` is the
run's return code, there is no output check (the kernels' results are tested elsewhere; a count does not depend on
the values). Writes bench/results/sweep_results.json (under `bazel run`, in the workspace).

    bazel run //bench:sweep
"""

import argparse
import json
import os
import sys

from compiler.report import cost_model
from toolchains.tools.qemu_count import count


def guest_lines(output: str) -> list:
    """[{model, rc}] from the perf main's `perf: model=P rc=R run_stack=S` lines, in order."""
    rows = []
    for line in output.splitlines():
        if line.startswith("perf: "):
            fields = dict(kv.split("=", 1) for kv in line.split()[1:])
            rows.append({"model": fields["model"], "rc": int(fields["rc"])})
    return rows


def rows_of(image: str, plugin: str) -> list:
    """The rows of one `--image=BOARD|CORE|MACHINE|ELF|REPORTS|model,model,...` (REPORTS: the directory of the
    models' reports as compiled for the image's core)."""
    board, core, machine, elf, reports, models = image.split("|")
    models = models.split(",")
    run = count(elf, machine, plugin)
    ran = guest_lines(run.output)
    if [r["model"] for r in ran] != models or len(run.regions) != len(models):
        raise SystemExit(
            f"sweep: {elf} on {machine} ran {[r['model'] for r in ran]} with {len(run.regions)} regions; expected "
            f"{len(models)} models {models} (exit {run.exit_code})"
        )
    rows = []
    for r, instructions in zip(ran, run.regions):
        with open(os.path.join(reports, r["model"] + ".json")) as f:
            manifest = json.load(f)
        ops = [op for op in manifest["ops"] if op.get("kernel") and op.get("fused_into") is None]
        if len(ops) != 1:
            raise SystemExit(f"sweep: {r['model']} has {len(ops)} layers with code; a sweep model has one")
        op = ops[0]
        tensors = {t["index"]: t for t in manifest["tensors"]}
        unit, work, band = cost_model.layer_work(op, tensors)
        used = set(op.get("inputs", [])) | set(op.get("outputs", []))
        rows.append(
            {
                "model": r["model"],
                "board": board,
                "core": core,
                "instructions": instructions,
                "exit_code": run.exit_code,
                "run_ok": r["rc"] == 0,
                "sweep": True,
                "layers": [
                    {
                        "index": op["index"],
                        "kind": op["kind"],
                        "kernel": op["kernel"],
                        "entry": op.get("entry"),
                        "macs": op.get("macs", 0),
                        "instructions": instructions,
                        "unit": unit,
                        "work": work,
                        "band": band,
                    }
                ],
                "work_vector": cost_model.work_vector(manifest),
                # What the work is priced from (bench/calibrate.py: rework), without the weights.
                "manifest": {
                    "ops": manifest["ops"],
                    "tensors": [t for t in manifest["tensors"] if t["index"] in used],
                },
            }
        )
        print(f"sweep: {r['model']} on {board}: {instructions:,} instructions", file=sys.stderr)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", action="append", default=[], help="BOARD|CORE|MACHINE|ELF|REPORTS|MODEL,MODEL,...")
    ap.add_argument("--plugin", required=True, help="the instruction-counting QEMU plugin (.so)")
    ap.add_argument("--out", default="", help="default: bench/results/sweep_results.json in the workspace")
    args = ap.parse_args(argv)
    rows = [row for image in args.image for row in rows_of(image, args.plugin)]
    out = args.out or os.path.join(
        os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."), "bench", "results", "sweep_results.json"
    )
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
    print(f"sweep: wrote {out} ({len(rows)} rows)", file=sys.stderr)
    return 0 if all(r["run_ok"] and r["exit_code"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
