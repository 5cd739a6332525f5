"""The check of aot_perf_test: one QEMU run of a perf firmware, every model's figures against its budget.

The firmware (gen_perf_main.py) runs each model's first inference between the two markers; the instruction-counting
plugin (toolchains/qemu/insn_count_plugin.c, through toolchains/tools/qemu_count.py) counts each region exactly and
attributes its instructions to the model's layers (toolchains/tools/layers.py). Per model: instructions, the run's
stack high-water mark (painted stack) and the planned workspace (the model's report as compiled for the board)
against `--budget PREFIX=instructions:N,stack:N,workspace:N` (0 or absent: not checked). A model over a budget
fails the test with the measured figure, the budget and the layers that cost the most. Instruction counts are
deterministic, so a budget is a hard line, not a statistical one.

The painted-stack peak is also checked against the static bound of `<prefix>_run` that the firmware's size report
prints (toolchains/tools/stack_usage.py: the deepest call path of the linked code, frame by frame): a run that used
more than the bound, or a bound that is only a lower bound (a call it cannot follow), fails the test, so the bound a
user reads in the report is one every model's measured peak has been held to.

With --expect_failure (a fixture that must fail), the test passes iff the check fails and its message contains
every expected string.
"""

import argparse
import json
import sys

from toolchains.tools import layers
from toolchains.tools.qemu_count import count
from toolchains.tools.stack_usage import estimate as stack_bounds

FIGURES = ("instructions", "stack", "workspace")


def parse_budget(spec: str) -> tuple:
    """`PREFIX=instructions:N,stack:N,workspace:N` -> (prefix, {figure: N})."""
    prefix, _, rest = spec.partition("=")
    budget = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition(":")
        if key not in FIGURES:
            raise SystemExit(f"aot_perf_test: unknown budget '{key}' in {spec!r} (expected {', '.join(FIGURES)})")
        budget[key] = int(value)
    return prefix, budget


def guest_lines(output: str) -> list:
    """[{model, rc, run_stack}] from the firmware's `perf: model=P rc=R run_stack=S` lines, in order."""
    rows = []
    for line in output.splitlines():
        if line.startswith("perf: "):
            fields = dict(kv.split("=", 1) for kv in line.split()[1:])
            rows.append({"model": fields["model"], "rc": int(fields["rc"]), "run_stack": int(fields["run_stack"])})
    return rows


def worst_layers(rows: list, n: int) -> list:
    """The table of the `n` layers with the most instructions, as text lines."""
    total = sum(r["instructions"] for r in rows) or 1
    worst = sorted(rows, key=lambda r: -r["instructions"])[:n]
    out = [f"    {'op':>4}  {'kind':<18} {'kernel':<28} {'MACs':>11} {'instructions':>13} {'share':>6} {'/MAC':>6}"]
    for r in worst:
        per_mac = f"{r['instructions'] / r['macs']:.2f}" if r["macs"] else "-"
        out.append(
            f"    {r['index']:>4}  {r['kind']:<18} {str(r['entry'] or r['kernel'] or '-'):<28} {r['macs']:>11,} "
            f"{r['instructions']:>13,} {100 * r['instructions'] / total:>5.1f}% {per_mac:>6}"
        )
    return out


def check(measured: dict, budgets: dict, layer_rows: dict, n_layers: int) -> list:
    """Failure paragraphs (empty if every model is within its budget)."""
    problems = []
    for prefix in measured:
        if prefix not in budgets:
            figures = ", ".join(f"{k} {measured[prefix][k]:,}" for k in FIGURES)
            problems.append(f"{prefix}: no budget (measured {figures}); give it one in the test's budgets")
    for prefix, budget in budgets.items():
        if prefix not in measured:
            problems.append(f"{prefix}: has a budget but the firmware measured no such model ({', '.join(measured)})")
            continue
        over = []
        for key in FIGURES:
            limit, got = budget.get(key, 0), measured[prefix][key]
            if limit and got > limit:
                unit = "" if key == "instructions" else " B"
                over.append(
                    f"  {key}: measured {got:,}{unit} > budget {limit:,}{unit} (+{100.0 * (got - limit) / limit:.2f} %)"
                )
        if not over:
            continue
        text = [f"{prefix}: over its budget"] + over
        rows = layer_rows.get(prefix)
        if rows:
            text.append(f"  Worst layers ({min(n_layers, len(rows))} of {len(rows)}, first inference):")
            text += worst_layers(rows, n_layers)
        else:
            text.append(
                "  No per-layer breakdown: the runner's kernel calls could not be matched with its layers (a "
                "shape-specialized runner whose layers GCC inlined, see toolchains/tools/layers.py)."
            )
        problems.append("\n".join(text))
    return problems


def stack_problems(measured: dict, bounds: dict) -> list:
    """One message per model whose painted-stack peak is not held by the static bound of its `<prefix>_run`."""
    problems = []
    for p, fig in measured.items():
        b = bounds.get(p + "_run")
        if b is None:
            problems.append(f"{p}: no static stack bound: {p}_run is not a function of the linked image")
        elif b.unbounded:
            problems.append(
                f"{p}: the static stack bound of {p}_run ({b.bytes} B) is a lower bound only: {b.unbounded}"
            )
        elif fig["stack"] > b.bytes:
            path = " -> ".join(f"{f} ({n} B)" for f, n in b.path)
            problems.append(
                f"{p}: the run used {fig['stack']} B of stack, more than the static bound of {b.bytes} B "
                f"(deepest path: {path}); stack_usage.py misses a frame or a call"
            )
    return problems


def attribute(args, manifests: dict, measured: dict) -> dict:
    """prefix -> per-layer rows (toolchains/tools/layers.py) from a second run with the per-block attribution."""
    runners = {p: layers.runner_range(args.elf, p) for p in manifests}
    run = count(args.elf, args.machine, args.plugin, timeout=args.timeout, runner=[r for r in runners.values() if r])
    rows = {}
    for p, instructions in zip(measured, run.regions):
        if instructions != measured[p]["instructions"]:
            first = measured[p]["instructions"]
            print(f"aot_perf_test: {p}: {instructions:,} instructions on the second run, {first:,} on the first")
        if runners.get(p) and run.sites:
            rows[p] = layers.per_layer(args.elf, runners[p], run.sites, manifests[p], objdump=args.objdump)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--machine", required=True, help="QEMU -M value")
    ap.add_argument("--board", required=True)
    ap.add_argument("--core", required=True)
    ap.add_argument("--plugin", required=True, help="the instruction-counting QEMU plugin (.so)")
    ap.add_argument("--objdump", default=None, help="the ARM objdump (per-layer attribution)")
    ap.add_argument("--manifest", action="append", default=[], help="a linked model's report <prefix>.json")
    ap.add_argument("--budget", action="append", default=[], help="PREFIX=instructions:N,stack:N,workspace:N")
    ap.add_argument("--layers", type=int, default=5, help="how many of the worst layers a failure lists")
    ap.add_argument("--expect_failure", action="append", default=[], help="fixture: strings the failure must say")
    ap.add_argument("--json_out", default="", help="also write the measured figures here")
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args(argv)

    manifests = {}
    for path in args.manifest:
        with open(path) as f:
            m = json.load(f)
        manifests[m["prefix"]] = m
    budgets = dict(parse_budget(b) for b in args.budget)
    if "" in budgets:  # aot_perf_test(library = ...): the budget of the firmware's only model
        if len(manifests) != 1:
            raise SystemExit(f"aot_perf_test: a budget without a model name needs one model; got {sorted(manifests)}")
        budgets[next(iter(manifests))] = budgets.pop("")

    # The plain count is fast (an inline add per translated block); the per-layer attribution calls back on every
    # block executed (about ten times slower), so it runs only when a budget is exceeded. The counts are the same.
    run = count(args.elf, args.machine, args.plugin, timeout=args.timeout)
    guest = guest_lines(run.output)
    if run.exit_code != 0 or len(guest) != len(run.regions) or any(g["rc"] for g in guest):
        print(run.output)
        print(
            f"aot_perf_test: the firmware failed on {args.machine} (exit {run.exit_code}; {len(guest)} models "
            f"reported, {len(run.regions)} regions measured); a model's run returned an error or the guest faulted"
        )
        return 1
    measured = {}
    for g, instructions in zip(guest, run.regions):
        m = manifests[g["model"]]
        measured[g["model"]] = {
            "instructions": instructions,
            "stack": g["run_stack"],
            "workspace": m["workspace"]["size"],
            "macs": m["macs"],
        }
    bounds = stack_bounds(args.objdump, args.elf, [p + "_run" for p in measured]) if args.objdump else {}
    for p in measured:
        if p + "_run" in bounds:
            measured[p]["stack_bound"] = bounds[p + "_run"].bytes
    layer_rows = {}
    if check(measured, budgets, {}, args.layers):
        layer_rows = attribute(args, manifests, measured)

    print(f"aot_perf_test on {args.board} ({args.core}, QEMU {args.machine}): first inference of each model")
    heads = ("model", "instructions", "budget", "stack B", "budget", "workspace B", "budget", "stack bound B")
    print(f"  {heads[0]:<24} " + " ".join(f"{h:>{w}}" for h, w in zip(heads[1:], (13, 13, 8, 8, 11, 11, 13))))
    for p, fig in measured.items():
        b = budgets.get(p, {})
        cells = [
            cell
            for key, width in (("instructions", 13), ("stack", 8), ("workspace", 11))
            for cell in (
                f"{fig[key]:>{width},}",
                f"{b[key]:>{max(width, 8)},}" if b.get(key) else f"{'-':>{max(width, 8)}}",
            )
        ]
        cells.append(f"{fig['stack_bound']:>13,}" if "stack_bound" in fig else f"{'-':>13}")
        print(f"  {p:<24} " + " ".join(cells))
    # One line a script can read back from the test log (tools/update_perf_budgets.py).
    print("aot_perf_test figures: " + json.dumps({"board": args.board, "models": measured}, sort_keys=True))
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"board": args.board, "core": args.core, "models": measured, "layers": layer_rows}, f, indent=1)

    problems = check(measured, budgets, layer_rows, args.layers)
    if args.objdump:
        problems += stack_problems(measured, bounds)
    message = "\n\n".join(problems)
    if args.expect_failure:
        print(message or "(no failure)")
        if not problems:
            print("aot_perf_test fixture: every model is within its budget, but this fixture must fail")
            return 1
        missing = [e for e in args.expect_failure if e not in message]
        if missing:
            print("aot_perf_test fixture: the failure does not say: " + "; ".join(repr(e) for e in missing))
            return 1
        print("aot_perf_test fixture: fails as it must")
        return 0
    if problems:
        print(f"\naot_perf_test: FAILED on {args.board} ({args.core}):\n\n{message}")
        return 1
    print("aot_perf_test: every model is within its budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
