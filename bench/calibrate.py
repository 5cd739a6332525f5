"""Calibrates the compiler's cost model from a bench run: writes compiler/report/cost_table.py.

    bench/recalibrate.sh        # the three steps below, then the tests that read the table

    bazel run //bench:bench     # writes bench/results/bench_results.json
    bazel run //bench:sweep     # writes bench/results/sweep_results.json (one-layer models per kernel and class)
    bazel run //bench:calibrate # reads both, rewrites compiler/report/cost_table.py

For every core the table holds prices, instructions per unit of work (a MAC, or an output element for layers that do
not multiply; compiler/report/cost_model.py), under keys from the most specific to the coarsest: the kernel and its
shape class (`aot_conv2d_s8_dsp_sat|k<=32,c<=64`), the kernel over every class, the operator kind (`CONV_2D|mac`) and
the core (`*|mac`, `*|element`). A class's price is the measured instructions over the work of its layers: the
bench's per-layer counts (runners that call the CRT kernels) and the sweep's one-layer models (each model's count is
its layer's, on every core). A bench run with its total only (the Cortex-M3's shape-specialized runner inlines its
layers) is split over its classes in proportion to those prices and counts with them; a kernel no per-layer run
priced gets one price, fitted to the totals (non-negative least squares on relative errors). The kind and core
prices are the work-weighted means (the fit itself: compiler/report/cost_fit.py). The table also keeps every model's
measured total, its work by key and its per-layer counts by kernel and shape class (MEASURED in cost_measured.py;
sweep rows marked),
which //tests/compiler:test_cost_model compares with the estimate and refits without each bench model in turn (the
out-of-sample table this prints, and bench/README.md shows)."""

import argparse
import ast
import json
import os
import pprint
import re


def rework(row: dict, manifests: str):
    """The row's work by layer and by key, from the model's report as compiled for the board, with today's
    cost_model (the shape classes may have changed since the bench wrote the row)."""
    from compiler.report import cost_model

    manifest = row.get("manifest")  # a sweep row carries its layer's operator and tensors (bench/sweep.py)
    if manifest is None:
        path = os.path.join(manifests, f"{row['model']}_{row['board']}.model.json")
        if not os.path.exists(path):
            return
        with open(path) as f:
            manifest = json.load(f)
    ops = {op["index"]: op for op in manifest["ops"]}
    tensors = {t["index"]: t for t in manifest["tensors"]}
    for layer in row.get("layers") or []:
        layer["unit"], layer["work"], layer["band"] = cost_model.layer_work(ops[layer["index"]], tensors)
    row["work_vector"] = cost_model.work_vector(manifest)


# perf test prefixes (tests/models) that are bench models under another name.
_PERF_ALIASES = {"resnet8": "resnet", "hello_int8": "hello_world_int8", "hello_float": "hello_world_float"}


def os_ratios(measured: dict, budgets: str, cores: str) -> dict:
    """core -> bench model -> its -Os count over its -O2 count: the perf tests (tests/models, aot_perf_test) build
    -Os and keep each model's count + 2 % as its budget (perf_budgets.bzl), the bench builds -O2. What the report
    gives beside the -O2 estimate for an -Os build (the ratio varies by model: no single factor is claimed)."""
    with open(budgets) as f:
        text = f.read()
    table = ast.literal_eval(text[text.index("PERF_BUDGETS = ") + len("PERF_BUDGETS = ") :])
    with open(cores) as f:
        board_core = dict(re.findall(r'"([\w-]+)": \{\s*"core": "([\w-]+)"', f.read()))
    out = {}
    for board, models in table.items():
        core = board_core.get(board)
        for prefix, budget in models.items():
            model = _PERF_ALIASES.get(prefix, prefix)
            m = measured.get(core, {}).get(model)
            if m:
                out.setdefault(core, {})[model] = round(budget["instructions"] / 1.02 / m["instructions"], 3)
    return out


def render(prices: dict, sources: list, ratios: dict = None) -> str:
    """cost_table.py: what the compiler reads at every compile (kept small: the measurements are apart)."""
    return (
        '"""The cost model\'s calibration: written by bench/calibrate.py from a bench run. Do not edit: rerun it.\n\n'
        + f"Source: {', '.join(sources)}.\n"
        + "PRICES: core -> key -> [instructions, work] (compiler/report/cost_model.py). The measurements they were\n"
        + 'fitted from: cost_measured.py.\n"""\n\n'
        + "# ruff: noqa: E501\n# fmt: off\n"
        + "PRICES = "
        + pprint.pformat(prices, width=120, sort_dicts=True)
        + "\n\n# core -> bench model -> its -Os count (the perf tests' budget / 1.02) over its -O2 count\n"
        + "# (bench/calibrate.py: os_ratios): what the report says of an -Os build.\nOS_RATIOS = "
        + pprint.pformat(ratios or {}, width=120, sort_dicts=True)
        + "\n"
    )


def render_measured(measured: dict, sources: list) -> str:
    """cost_measured.py: the rows the prices come from (read by the tests, not by the compiler)."""
    return (
        '"""The cost model\'s measurements: written by bench/calibrate.py beside cost_table.py. Do not edit.\n\n'
        + f"Source: {', '.join(sources)}.\n"
        + "MEASURED: core -> model -> its board, measured instructions per inference (QEMU, -O2), its work by key and\n"
        + "its per-layer counts by kernel and shape class (None: a runner that inlines its layers; sweep: one of the\n"
        + "calibration sweep's one-layer models), from which //tests/compiler:test_cost_model estimates every bench\n"
        + 'model again and refits the prices without it (compiler/report/cost_fit.py: leave_one_out).\n"""\n\n'
        + "# ruff: noqa: E501\n# fmt: off\n"
        + "MEASURED = "
        + pprint.pformat(measured, width=120, sort_dicts=True)
        + "\n"
    )


def agreement(prices: dict, measured: dict) -> str:
    """Markdown: every bench model's estimate against its measurement, per core; a line per core on the sweep."""
    from compiler.report.cost_model import estimate_work

    lines = ["| core | model | measured | estimate | error |", "|---|---|---:|---:|---:|"]
    sweep = {}
    for core, models in measured.items():
        for model, m in models.items():
            est = estimate_work(core, m["work"], prices)
            err = 100.0 * (est - m["instructions"]) / m["instructions"]
            if m.get("sweep"):  # the calibration sweep's one-layer models: summarized below
                sweep.setdefault(core, []).append(err)
                continue
            lines.append(f"| {core} | {model} | {m['instructions']:,} | {est:,} | {err:+.1f} % |")
    lines.append("")
    for core, errs in sweep.items():
        within = sum(abs(e) <= 10 for e in errs)
        lines.append(
            f"sweep on {core}: {len(errs)} one-layer models, {within} within 10 % of their own count at their class's"
            f" price (worst {max(errs, key=abs):+.1f} %)"
        )
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "results",
        nargs="*",
        help="bench and sweep result JSON files (default: bench/results/bench_results.json, sweep_results.json)",
    )
    ap.add_argument("--out", default=os.path.join("compiler", "report", "cost_table.py"))
    ap.add_argument(
        "--manifests",
        default=os.path.join("bazel-bin", "bench"),
        help="where the bench firmware's <model>_<board>.model.json are (the work is priced from them again)",
    )
    ap.add_argument(
        "--perf_budgets",
        default=os.path.join("tests", "models", "perf_budgets.bzl"),
        help="the perf tests' -Os counts (+2 %%), for the report's -Os line",
    )
    args = ap.parse_args(argv)
    os.chdir(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."))
    paths = args.results or [
        p
        for p in (os.path.join("bench", "results", n) for n in ("bench_results.json", "sweep_results.json"))
        if os.path.exists(p)
    ]
    rows = []
    for path in paths:
        with open(path) as f:
            rows += json.load(f)["rows"]
    for row in rows:
        rework(row, args.manifests)
    from compiler.report import cost_fit

    prices, measured = cost_fit.calibrate(rows)
    ratios = os_ratios(measured, args.perf_budgets, os.path.join("toolchains", "cores.bzl"))
    sources = [os.path.basename(p) for p in paths]
    with open(args.out, "w") as f:
        f.write(render(prices, sources + [args.perf_budgets], ratios))
    with open(os.path.join(os.path.dirname(args.out), "cost_measured.py"), "w") as f:
        f.write(render_measured(measured, sources))
    loo = cost_fit.leave_one_out(measured)
    print("In sample (the prices just fitted) and out of sample (each bench model left out of the fit):\n")
    print(cost_fit.markdown_both(measured, prices, loo))
    print("\n" + agreement(prices, measured).split("\n\n")[-1])
    print("\nOut of sample, how each estimate was priced:\n")
    print(cost_fit.markdown(loo))
    print(f"calibrate: {args.out}: {', '.join(f'{c} ({len(m)} models)' for c, m in measured.items())}")


if __name__ == "__main__":
    main()
