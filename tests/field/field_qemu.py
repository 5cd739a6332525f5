"""The QEMU sample of the field conformance suite, run through Bazel.

The firmware build (board platform, linker script, startup code, ARM toolchain) lives in the Bazel rules, so the
sample is a set of aot_model_test targets in tests/field/BUILD.bazel (one per model of QEMU_SAMPLE in
baseline.bzl); this module runs the ones whose model passed on the host and records each result on its model.
$AOT_BAZEL replaces the Bazel command (default: the checkout's ./bazelw).
"""

import os
import re
import shlex
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BOARD = "mps2-an386"
_STATUS = re.compile(
    r"^(//tests/field:\S+)\s+(?:\(cached\)\s+)?(PASSED|FAILED|TIMEOUT|NO STATUS|FLAKY|"
    r"FAILED TO BUILD|SKIPPED)"
)


def run_sample(results: list, sample: list, models_dir: str = "") -> None:
    by_model = {r.model: r for r in results}
    targets = {
        f"//tests/field:{name}_{BOARD}": model
        for model, name, _ in sample
        if model in by_model and by_model[model].outcome == "ok"
    }
    if not targets:
        print("field conformance: no QEMU sample model passed on the host; nothing to run under QEMU")
        return
    cmd = shlex.split(os.environ.get("AOT_BAZEL") or os.path.join(REPO, "bazelw")) + [
        "test",
        "--test_output=errors",
        "--keep_going",
    ]
    if models_dir:
        cmd.append("--repo_env=AOT_FIELD_MODELS_DIR=" + os.path.abspath(models_dir))
    cmd += sorted(targets)
    print("field conformance: QEMU sample: " + " ".join(cmd))
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    seen = {}
    for line in (proc.stdout + proc.stderr).splitlines():
        m = _STATUS.match(line.strip())
        if m and m.group(1) in targets:
            seen[m.group(1)] = m.group(2)
    for target, model in targets.items():
        status = seen.get(target)
        if status == "PASSED":
            by_model[model].qemu = "pass"
        else:
            tail = " ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])[-200:]
            by_model[model].qemu = f"fail: {status or 'no result'} ({target}; {tail})"
