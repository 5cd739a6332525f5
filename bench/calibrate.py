"""Calibrates the compiler's cost model from a bench run: writes compiler/report/cost_table.py.

    bazel run //bench:bench                                   # writes bench/results/bench_results.json
    bazel run //bench:calibrate                               # reads it, rewrites compiler/report/cost_table.py

For every core the table holds prices, instructions per unit of work (a MAC, or an output element for layers that do
not multiply; compiler/report/cost_model.py), under keys from the most specific to the coarsest: the kernel and its
shape class (`aot_conv2d_s8_dsp_sat|k<=32`), the kernel over every class, the operator kind (`CONV_2D|mac`) and the
core (`*|mac`, `*|element`). Where the bench has per-layer counts (runners that call the CRT kernels: most runs on
M4, M7, M33, M55) a kernel's price is the measured instructions over the work of its layers. A run without them (a
shape-specialized M0/M3 runner that inlines its layers, a model whose calls cannot be matched) has its total only:
the kernels no per-layer run priced get one price each, fitted to those totals (non-negative least squares on
relative errors). The kind and core prices are the work-weighted means of those. The table also keeps every bench
model's measured total and its work by key (MEASURED), which //tests/compiler:test_cost_model compares with the
estimate."""

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
            for key in (f"{entry}|{layer['band']}", f"{entry}|*"):
                _add(prices, key, n, w)
    return {k: [int(v[0]), int(v[1])] for k, v in prices.items() if v[1]}


def _entry_price(prices: dict, key: str):
    entry, band, _kind, _unit = key.split("|")
    for k in (f"{entry}|{band}", f"{entry}|*"):
        if k in prices:
            return prices[k][0] / prices[k][1]
    return None


def fitted_prices(rows: list, prices: dict, sweeps: int = 2000) -> dict:
    """Prices for the kernels of runs without per-layer counts, fitted to their totals: every layer whose kernel
    has a measured price keeps it, the others get one price per kernel (`entry|*`) such that the models' totals
    come out right: min sum(((known + X p - y) / y)^2) with p >= 0, by coordinate descent."""
    known, unknown = [], []
    for r in rows:
        k = 0.0
        for key, n in r["work_vector"].items():
            p = _entry_price(prices, key)
            if p is None:
                unknown.append(key.split("|")[0])
            else:
                k += p * n
        known.append(k)
    groups = sorted(set(unknown))
    if not groups:
        return {}
    X = [
        [
            sum(
                n for key, n in r["work_vector"].items() if key.split("|")[0] == g and _entry_price(prices, key) is None
            )
            for g in groups
        ]
        for r in rows
    ]
    y = [r["instructions"] for r in rows]
    rest_total = sum(max(0.0, t - k) for t, k in zip(y, known))
    p = [rest_total / max(1, sum(sum(x) for x in X))] * len(groups)
    for _ in range(sweeps):
        for j in range(len(groups)):
            num = den = 0.0
            for x, t, k in zip(X, y, known):
                if not x[j]:
                    continue
                rest = k + sum(x[i] * p[i] for i in range(len(groups)) if i != j)
                a = x[j] / t
                num += a * (1.0 - rest / t)
                den += a * a
            if den:
                p[j] = max(0.0, num / den)
    # Stored as (instructions, work) like the measured prices: work 10^6 keeps six significant digits.
    return {f"{g}|*": [int(round(pj * 1_000_000)), 1_000_000] for g, pj in zip(groups, p)}


def _coarse(prices: dict, rows: list) -> dict:
    """Operator-kind and core prices (`CONV_2D|mac`, `*|element`) over every model of the core, from the finer ones:
    what a layer of a kernel the bench never ran on that core is priced at."""
    out = {}
    for r in rows:
        for key, n in r["work_vector"].items():
            p = _entry_price(prices, key)
            if p is None:
                continue
            _entry, _band, kind, unit = key.split("|")
            for k in (f"{kind}|{unit}", f"*|{unit}"):
                _add(out, k, p * n, n)
    return {k: [int(round(v[0])), int(v[1])] for k, v in out.items() if v[1]}


def rework(row: dict, manifests: str):
    """The row's work by layer and by key, from the model's report as compiled for the board, with today's
    cost_model (the shape classes may have changed since the bench wrote the row)."""
    from compiler.report import cost_model

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


def calibrate(results: list) -> tuple:
    """(PRICES, MEASURED) from bench result rows (every run whose outputs were exact)."""
    by_core = {}
    for row in results:
        if row.get("outputs_exact") and row.get("work_vector"):
            by_core.setdefault(row["core"], []).append(row)
    prices, measured = {}, {}
    for core, rows in sorted(by_core.items()):
        layered = [r for r in rows if r.get("layers")]
        p = {k: v for k, v in layered_prices(layered).items() if not k.startswith("*|") and "|mac" not in k[-4:]}
        p = {k: v for k, v in p.items() if not (k.endswith("|mac") or k.endswith("|element"))}
        p.update(fitted_prices([r for r in rows if not r.get("layers")], p))
        p.update(_coarse(p, rows))
        prices[core] = p
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
        + "# ruff: noqa: E501\n# fmt: off\n"
        + "PRICES = "
        + pprint.pformat(prices, width=120, sort_dicts=True)
        + "\n\nMEASURED = "
        + pprint.pformat(measured, width=120, sort_dicts=True)
        + "\n"
    )


def agreement(prices: dict, measured: dict) -> str:
    """Markdown: every bench model's estimate against its measurement, per core."""
    from compiler.report.cost_model import estimate_work

    lines = ["| core | model | measured | estimate | error |", "|---|---|---:|---:|---:|"]
    for core, models in measured.items():
        for model, m in models.items():
            est = estimate_work(core, m["work"], prices)
            err = 100.0 * (est - m["instructions"]) / m["instructions"]
            lines.append(f"| {core} | {model} | {m['instructions']:,} | {est:,} | {err:+.1f} % |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="*", help="bench result JSON files (default: bench/results/bench_results.json)")
    ap.add_argument("--out", default=os.path.join("compiler", "report", "cost_table.py"))
    ap.add_argument(
        "--manifests",
        default=os.path.join("bazel-bin", "bench"),
        help="where the bench firmware's <model>_<board>.model.json are (the work is priced from them again)",
    )
    args = ap.parse_args(argv)
    os.chdir(os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."))
    paths = args.results or [os.path.join("bench", "results", "bench_results.json")]
    rows = []
    for path in paths:
        with open(path) as f:
            rows += json.load(f)["rows"]
    for row in rows:
        rework(row, args.manifests)
    prices, measured = calibrate(rows)
    with open(args.out, "w") as f:
        f.write(render(prices, measured, [os.path.basename(p) for p in paths]))
    print(agreement(prices, measured))
    print(f"calibrate: {args.out}: {', '.join(f'{c} ({len(m)} models)' for c, m in measured.items())}")


if __name__ == "__main__":
    main()
