"""The benchmark runner (`bazel run //bench:bench`): measures every bench firmware and prints the table.

For each (model, board) entry it counts the instructions of one inference after a warm-up (qemu_count: exact,
deterministic; instruction counts, not cycles), reads the run's stack high-water mark and the output check from the
guest, splits flash into code (the model's runner + the CRT it links) and weights, and RAM into workspace, run
stack and static data (from the image report of the linked ELF and the model's JSON report), times the AOT compiler
on the model, and compares with TFLite Micro's figures (reference_figures.json) where they exist. Writes
bench_results.json and bench_results.md into --out_dir (default: bench/results in the workspace under `bazel run`).
"""

import argparse
import json
import os
import sys
import time

from bench.qemu_count import count
from compiler import driver


def _model_file_weight_bytes(model: str) -> int:
    graph = driver.load_model(model)
    return sum(t.data.nbytes for t in graph.tensors if t.data is not None)


def measure(entry: str, plugin: str) -> dict:
    name, board, core, machine, model, elf = entry.split("|")
    pkg = os.path.dirname(elf)
    with open(elf[:-len(".elf")] + ".size.json") as f:
        image = json.load(f)
    with open(os.path.join(pkg, name + ".json")) as f:
        manifest = json.load(f)
    owners = {o["name"]: o for o in image["owners"]}
    mine, crt = owners[name], owners["CRT (aot_*)"]
    t0 = time.perf_counter()
    driver.compile_model(model, name, core)
    compile_s = time.perf_counter() - t0
    run = count(elf, machine, plugin)
    fields = dict(kv.split("=") for kv in run.output.strip().splitlines()[-1].split()[1:]) if run.output else {}
    return {
        "model": name, "board": board, "core": core, "macs": manifest["macs"],
        "instructions": run.instructions, "exit_code": run.exit_code,
        "outputs_exact": fields.get("exact") == "1",
        "code_bytes": mine["code"] + crt["code"], "model_code_bytes": mine["code"], "crt_code_bytes": crt["code"],
        "weight_bytes": manifest["weight_bytes"], "param_bytes": manifest["param_bytes"],
        "constants_in_image": mine["constants"] + crt["constants"],
        "model_file_weight_bytes": _model_file_weight_bytes(model),
        "workspace_bytes": manifest["workspace"]["size"], "run_stack_bytes": int(fields.get("run_stack", -1)),
        "run_stack_static_estimate": mine.get("run_stack"),
        "static_data_bytes": mine["ram"] + crt["ram"],
        "compile_seconds": round(compile_s, 3),
    }


def compare(row: dict, ref: dict) -> dict:
    r = ref["models"].get(row["model"])
    if r is None or row["board"] != ref["board"]:
        return {}
    t = ref["targets"]
    out = {
        "vs_tflm_reference": row["instructions"] / r["tflm_reference_instructions"],
        "vs_tflm_cmsis_nn": row["instructions"] / r["tflm_cmsis_nn_instructions"],
        "workspace_vs_arena": row["workspace_bytes"] / r["tflm_arena_bytes"],
        "code_vs_library": row["code_bytes"] / r["tflm_library_code_bytes"],
    }
    out["meets"] = {
        "instructions": out["vs_tflm_cmsis_nn"] <= r["target_instruction_ratio"],
        "workspace": out["workspace_vs_arena"] <= t["workspace_vs_arena"],
        "code": out["code_vs_library"] <= t["code_vs_library"],
        "weights": row["weight_bytes"] <= row["model_file_weight_bytes"],
    }
    out["instruction_target"] = r["target_instruction_ratio"]
    return out


def _m(n):
    return f"{n / 1e6:.2f} M"


def render_markdown(rows, skipped, ref) -> str:
    lines = [
        "Instructions per inference under QEMU (exact instruction counts, not cycles), -O2, after one warm-up run.",
        "",
        "| model | board | MACs | instructions | instr/MAC | vs TFLM ref | vs TFLM+CMSIS-NN (target) | code B | "
        "weights B (file) | workspace B (vs TFLM arena) | run stack B | static B | compile s | exact |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        c = row.get("compare", {})
        ok = lambda k: "" if not c else (" ✓" if c["meets"][k] else " ✗")  # noqa: E731
        lines.append(
            f"| {row['model']} | {row['board']} | {_m(row['macs'])} | {_m(row['instructions'])} | "
            f"{row['instructions'] / max(row['macs'], 1):.2f} | "
            + (f"{c['vs_tflm_reference']:.2f}x" if c else "") + " | "
            + (f"{c['vs_tflm_cmsis_nn']:.2f}x (≤{c['instruction_target']:.2f}){ok('instructions')}" if c else "")
            + f" | {row['code_bytes']:,}" + (f" ({c['code_vs_library']:.2f}x lib){ok('code')}" if c else "")
            + f" | {row['weight_bytes']:,} ({row['model_file_weight_bytes']:,}){ok('weights')}"
            + f" | {row['workspace_bytes']:,}" + (f" ({c['workspace_vs_arena']:.2f}x){ok('workspace')}" if c else "")
            + f" | {row['run_stack_bytes']:,} | {row['static_data_bytes']:,} | {row['compile_seconds']:.2f} | "
            + ("yes" if row["outputs_exact"] else "NO") + " |")
    for name, board, reason in skipped:
        lines.append(f"| {name} | {board} | does not fit: {reason} |" + " |" * 12)
    lines += ["", f"Reference figures: {ref['provenance']}"]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entry", action="append", default=[])
    ap.add_argument("--skip", action="append", default=[], help="NAME|BOARD|why it is not measured")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--only", default="", help="comma-separated model names to measure")
    ap.add_argument("--out_dir", default="")
    args = ap.parse_args(argv)
    with open(args.reference) as f:
        ref = json.load(f)
    only = set(filter(None, args.only.split(",")))
    rows = []
    for entry in args.entry:
        if only and entry.split("|")[0] not in only:
            continue
        row = measure(entry, args.plugin)
        row["compare"] = compare(row, ref)
        rows.append(row)
        print(f"bench: {row['model']} on {row['board']}: {row['instructions']:,} instructions", file=sys.stderr)
    skipped = [tuple(s.split("|", 2)) for s in args.skip]
    md = render_markdown(rows, skipped, ref)
    sys.stdout.write(md)
    out_dir = args.out_dir or os.path.join(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."), "bench", "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bench_results.json"), "w") as f:
        json.dump({"rows": rows, "skipped": skipped, "reference": ref}, f, indent=2)
    with open(os.path.join(out_dir, "bench_results.md"), "w") as f:
        f.write(md)
    print(f"bench: wrote {out_dir}/bench_results.json and .md", file=sys.stderr)
    return 0 if all(r["outputs_exact"] and r["exit_code"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
