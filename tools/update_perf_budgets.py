"""Rewrites tests/models/perf_budgets.bzl from the logs of the perf tests: every budget today's figure + 2 %.

Run the tests first (they fail when a model has no budget, but still log what they measured), then this:

    bazel test //tests/models:perf_tests
    .venv/bin/python tools/update_perf_budgets.py [--margin 2] [--testlogs bazel-testlogs]

Each aot_perf_test prints one line `aot_perf_test figures: {json}` (aot_rules/private/perf_check.py); a board
whose log is missing keeps its budgets. Raising a budget is a decision: say why in the commit.
"""

import argparse
import glob
import json
import math
import os
import re

FIGURES = ("instructions", "stack", "workspace")
_LINE = re.compile(r"^aot_perf_test figures: (\{.*\})$", re.M)


def read_figures(testlogs: str) -> dict:
    """board -> prefix -> {figure: measured} from tests/models/perf_<board>[_<model>]_test/test.log."""
    boards = {}
    for log in sorted(glob.glob(os.path.join(testlogs, "tests", "models", "perf_*_test", "test.log"))):
        with open(log) as f:
            found = _LINE.findall(f.read())
        if found:
            data = json.loads(found[-1])
            # perf_<board>_test and perf_<board>_<model>_test (a model measured alone) only: a fixture's log
            # (perf_over_budget_fixture_test) holds other budgets' figures.
            test = os.path.basename(os.path.dirname(log))
            if test == f"perf_{data['board']}_test" or (
                test.startswith(f"perf_{data['board']}_")
                and test[len(f"perf_{data['board']}_") : -len("_test")] in data["models"]
            ):
                boards.setdefault(data["board"], {}).update(data["models"])
    return boards


def budget(figure: str, measured: int, margin: float) -> int:
    """measured + margin %; bytes rounded up to 8 (a stack or buffer grows by words, not bytes)."""
    b = int(math.ceil(measured * (1 + margin / 100.0)))
    return b if figure == "instructions" else -(-b // 8) * 8


def budgets_from(figures: dict, margin: float) -> dict:
    return {
        board: {prefix: {k: budget(k, fig[k], margin) for k in FIGURES} for prefix, fig in sorted(models.items())}
        for board, models in sorted(figures.items())
    }


def render(budgets: dict, margin: float) -> str:
    lines = [
        '"""Performance budgets of tests/models\' aot_perf_tests: board -> model prefix -> budget.',
        "",
        f"Today's figures + {margin:g} %: instructions of the first inference; its run stack and the planned workspace",
        "in bytes, rounded up to 8 B. Written by tools/update_perf_budgets.py from the tests' logs; do not raise one",
        "without saying why.",
        '"""',
        "",
        "PERF_BUDGETS = {",
    ]
    for board, models in budgets.items():
        lines.append(f'    "{board}": {{')
        for prefix, b in models.items():
            cells = ", ".join(f'"{k}": {b[k]}' for k in FIGURES)
            lines.append(f'        "{prefix}": {{{cells}}},')
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def current(path: str) -> dict:
    scope = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), scope)  # noqa: S102 - our own data file, a Starlark dict literal
    return scope.get("PERF_BUDGETS", {})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--testlogs", default="bazel-testlogs")
    ap.add_argument("--margin", type=float, default=2.0, help="percent above the measured figure")
    ap.add_argument("--out", default=os.path.join("tests", "models", "perf_budgets.bzl"))
    args = ap.parse_args(argv)
    figures = read_figures(args.testlogs)
    if not figures:
        raise SystemExit(f"update_perf_budgets: no 'aot_perf_test figures' line under {args.testlogs}; run the tests")
    budgets = current(args.out) if os.path.exists(args.out) else {}
    budgets.update(budgets_from(figures, args.margin))
    with open(args.out, "w") as f:
        f.write(render(dict(sorted(budgets.items())), args.margin))
    print(f"update_perf_budgets: {args.out}: {', '.join(sorted(figures))} from their logs")


if __name__ == "__main__":
    main()
