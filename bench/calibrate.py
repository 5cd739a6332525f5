"""Calibrates the compiler's cost model from a bench run: writes compiler/report/cost_table.py.

    bazel run //bench:bench                                   # writes bench/results/bench_results.json
    bazel run //bench:calibrate                               # reads it, rewrites compiler/report/cost_table.py

For every core the table holds prices, instructions per unit of work (a MAC, or an output element for layers that
do not multiply; compiler/report/cost_model.py), under keys from the most specific to the coarsest: the kernel and
its shape class (`aot_conv2d_s8_dsp_sat|k<=32`), the kernel over every class, the operator kind
(`CONV_2D|mac`) and the core (`*|mac`, `*|element`). Where the bench has per-layer counts (the cores whose runners
call the CRT kernels: M4, M7, M33, M55) every price is the measured instructions over the work of the layers under
that key. A core whose runner inlines its layers (the shape-specialized M0/M3 code) has totals only: its operator-
kind prices are fitted to the models' totals (non-negative least squares on relative errors), and are the only
keys it has. The table also keeps every bench model's measured total and its work by key (MEASURED), which
//tests/compiler:test_cost_model compares with the estimate.
"""

import argparse
import json
import os
import pprint


def _add(prices: dict, key: str, instructions: float, work: float):
    have = prices.setdefault(key, [0, 0])
    have[0] += instructions
    have[1] += work


def layered_prices(rows: list) -> dict:
    prices = {}
    for row in rows:
        for layer in row["layers"]:
            if not layer.get("work") or not layer.get("kernel"):
                continue
            entry = layer.get("entry") or layer["kernel"]
            n, w = layer["instructions"], layer["work"]
            for key in (
                f"{entry}|{layer['band']}",
                f"{entry}|*",
                f"{layer['kind']}|{layer['unit']}",
                f"*|{layer['unit']}",
            ):
                _add(prices, key, n, w)
    return {k: [int(v[0]), int(v[1])] for k, v in prices.items() if v[1]}


def fitted_prices(rows: list, sweeps: int = 5000) -> dict:
    """Operator-kind prices fitted to totals: min sum(((X p - y) / y)^2) with p >= 0, by coordinate descent."""
    groups = sorted({"|".join(k.split("|")[2:]) for r in rows for k in r["work_vector"]})
    X = [[sum(n for k, n in r["work_vector"].items() if "|".join(k.split("|")[2:]) == g) for g in groups] for r in rows]
    y = [r["instructions"] for r in rows]
    p = [0.0] * len(groups)
    # Start from every group at the core's average price per unit of work.
    avg = sum(y) / max(1, sum(sum(x) for x in X))
    p = [avg] * len(groups)
    for _ in range(sweeps):
        for j in range(len(groups)):
            num = den = 0.0
            for x, t in zip(X, y):
                if not x[j]:
                    continue
                rest = sum(x[i] * p[i] for i in range(len(groups)) if i != j)
                a = x[j] / t
                num += a * (1.0 - rest / t)
                den += a * a
            if den:
                p[j] = max(0.0, num / den)
    # Stored as (instructions, work) like the measured prices: work 10^6 keeps six significant digits.
    prices = {g: [int(round(pj * 1_000_000)), 1_000_000] for g, pj in zip(groups, p)}
    total_work = {
        u: sum(x[j] for x in X for j, g in enumerate(groups) if g.endswith("|" + u)) for u in ("mac", "element")
    }
    for u in ("mac", "element"):
        spent = sum(x[j] * p[j] for x in X for j, g in enumerate(groups) if g.endswith("|" + u))
        if total_work[u]:
            prices[f"*|{u}"] = [int(round(spent)), int(total_work[u])]
    return prices


def calibrate(results: list) -> tuple:
    """(PRICES, MEASURED) from bench result rows (every run whose outputs were exact)."""
    by_core = {}
    for row in results:
        if row.get("outputs_exact") and row.get("work_vector"):
            by_core.setdefault(row["core"], []).append(row)
    prices, measured = {}, {}
    for core, rows in sorted(by_core.items()):
        layered = [r for r in rows if r.get("layers")]
        prices[core] = layered_prices(layered) if layered else fitted_prices(rows)
        measured[core] = {
            r["model"]: {"board": r["board"], "instructions": r["instructions"], "work": r["work_vector"]}
            for r in sorted(rows, key=lambda r: r["model"])
        }
    return prices, measured


def render(prices: dict, measured: dict, sources: list) -> str:
    return (
        '"""The cost model\'s calibration: written by bench/calibrate.py from a bench run. Do not edit: rerun it.\n\n'
        + f"Source: {', '.join(sources)}.\n"
        + "PRICES: core -> key -> [instructions, work] (compiler/report/cost_model.py);\n"
        + "MEASURED: core -> bench model -> its board, measured instructions per inference (QEMU, -O2) and its work\n"
        + 'by key (what //tests/compiler:test_cost_model estimates again).\n"""\n\n'
        + "# fmt: off\n"
        + "PRICES = "
        + pprint.pformat(prices, width=120, sort_dicts=True)
        + "\n\nMEASURED = "
        + pprint.pformat(measured, width=120, sort_dicts=True)
        + "\n"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="*", help="bench result JSON files (default: bench/results/bench_results.json)")
    ap.add_argument("--out", default=os.path.join("compiler", "report", "cost_table.py"))
    args = ap.parse_args(argv)
    os.chdir(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."))
    paths = args.results or [os.path.join("bench", "results", "bench_results.json")]
    rows = []
    for path in paths:
        with open(path) as f:
            rows += json.load(f)["rows"]
    prices, measured = calibrate(rows)
    with open(args.out, "w") as f:
        f.write(render(prices, measured, [os.path.basename(p) for p in paths]))
    print(f"calibrate: {args.out}: {', '.join(f'{c} ({len(m)} models)' for c, m in measured.items())}")


if __name__ == "__main__":
    main()
