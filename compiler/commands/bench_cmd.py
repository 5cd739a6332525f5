"""`bench [--only=kws,ad01]`: the benchmark suite of the aot_rules checkout, i.e. `bazel run //bench:bench`.

The suite builds firmware for several boards and runs it under QEMU, which needs Bazel and the checkout (not just
this package), so the command finds the checkout this compiler lives in and runs Bazel there. $AOT_BAZEL replaces
the Bazel command (default: the checkout's ./bazelw), e.g. `AOT_BAZEL="bazel --output_base=/tmp/b"`.
"""

import os
import shlex
import subprocess

from ..errors import CompileError


def _checkout() -> str:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(root, "bench", "BUILD.bazel")):
        raise CompileError(
            "`aotc bench` runs the benchmark suite of an aot_rules checkout (`bazel run "
            "//bench:bench`), and this compiler is not installed from one."
        )
    return root


_HELP = """usage: aotc bench [--only=MODEL,...] [--out_dir=DIR]

Builds the benchmark firmware of this checkout for every board, runs each under QEMU and prints instructions per
inference, code/weights flash, workspace/stack/static RAM and compile time, beside TFLite Micro's figures, as a
markdown table (also written as JSON and .md under bench/results/ or --out_dir). Same as `bazel run //bench:bench
-- ARGS`; set $AOT_BAZEL to change the Bazel command. See bench/README.md."""


def run_bench(args: list) -> int:
    if any(a in ("-h", "--help", "-help") for a in args):
        print(_HELP)  # without building everything first
        return 0
    root = _checkout()
    bazel = shlex.split(os.environ.get("AOT_BAZEL", "")) or [os.path.join(root, "bazelw")]
    return subprocess.run(bazel + ["run", "//bench:bench", "--"] + list(args), cwd=root).returncode
