"""The benchmark runner (`bazel run //bench:bench`): measures every bench firmware and prints the report.

For each `--entry` (a model linked for a board, see bench.bzl) it measures the row (measure.py); for each
`--unfit` it states why the model does not fit the board; then it prints the markdown report (report.py) and
writes it with the raw JSON to --out_dir (default: bench/results in the workspace under `bazel run`).
Exit code 1 if a run failed, an output was wrong, or an "unfit" model would in fact fit.

    bazel run //bench:bench                      # everything
    bazel run //bench:bench -- --only=kws,ad01   # a subset of models
"""

import argparse
import json
import os
import subprocess
import sys

from bench import measure, report


def _qemu_version() -> str:
    qemu = os.environ.get("AOT_QEMU", "qemu-system-arm")
    try:
        return subprocess.run([qemu, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entry", action="append", default=[], help="NAME|BOARD|CORE|MACHINE|MODEL|ELF")
    ap.add_argument("--unfit", action="append", default=[], help="NAME|BOARD|CORE|MODEL: not built, say why")
    ap.add_argument("--plugin", required=True, help="the instruction-counting QEMU plugin (.so)")
    ap.add_argument("--reference", required=True, help="reference_figures.json")
    ap.add_argument("--build_info", required=True, help="flags and board memory (bench.bzl's bench_build_info)")
    ap.add_argument("--only", default="", help="comma-separated model names to measure")
    ap.add_argument("--out_dir", default="")
    ap.add_argument("--results_name", default="bench_results", help="file name of the report (.md, .json)")
    args = ap.parse_args(argv)
    with open(args.reference) as f:
        ref = json.load(f)
    with open(args.build_info) as f:
        build = json.load(f)
    only = set(filter(None, args.only.split(",")))
    wanted = lambda spec: not only or spec.split("|")[0] in only  # noqa: E731

    rows = []
    for entry in filter(wanted, args.entry):
        row = measure.measure(entry, args.plugin)
        row["compare"] = report.compare(row, ref)
        row["compare_on_board"] = report.compare_on_board(row, ref)
        rows.append(row)
        cycles = f", {row['cycles']:,} estimated cycles" if row.get("cycles") else ""
        print(f"bench: {row['model']} on {row['board']}: {row['instructions']:,} instructions{cycles}", file=sys.stderr)
    unfit = [measure.fit(u, build["boards"]) for u in filter(wanted, args.unfit)]

    env = {"qemu": _qemu_version()}
    md = report.render_markdown(rows, unfit, ref, build, env)
    sys.stdout.write(md)
    out_dir = args.out_dir or os.path.join(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."), "bench", "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, args.results_name + ".json"), "w") as f:
        json.dump({"rows": rows, "unfit": unfit, "build": build, "environment": env, "reference": ref}, f, indent=2)
    with open(os.path.join(out_dir, args.results_name + ".md"), "w") as f:
        f.write(md)
    print(f"bench: wrote {out_dir}/{args.results_name}.json and .md", file=sys.stderr)
    ok = all(r["outputs_exact"] and r["exit_code"] == 0 for r in rows) and not any(u["fits"] for u in unfit)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
