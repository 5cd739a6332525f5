"""`workspace REPORT.json... --prefix NAME --mode exclusive|concurrent --out_dir D`: a shared workspace's picture.

aot_workspace runs it on the JSON reports of its models to write `D/NAME_plan.svg` (see report/workspace_svg.py).
"""

import json

from ..codegen.cnames import validate_prefix
from ..driver import write_files
from ..errors import CompileError
from ..report.workspace_svg import render_workspace_svg

MODES = ("exclusive", "concurrent")


def _load(path: str):
    try:
        with open(path) as f:
            m = json.load(f)
        return m["prefix"], m
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CompileError(
            f"Cannot read the model report '{path}' ({e}); pass the <prefix>.json files that `aotc compile` writes."
        ) from None


def run_workspace(reports: list, flags) -> int:
    if flags.mode not in MODES:
        raise CompileError(f"--mode '{flags.mode}' is not a workspace mode; use one of: {', '.join(MODES)}.")
    validate_prefix(flags.prefix)
    manifests = [_load(p) for p in reports]
    svg = render_workspace_svg(flags.prefix, manifests, flags.mode)
    for path in write_files(flags.out_dir, {f"{flags.prefix}_plan.svg": svg}):
        if not flags.quiet:
            print(f"wrote {path}")
    return 0
