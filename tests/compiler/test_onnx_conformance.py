"""ONNX backend conformance (see onnx_conformance.py for the cases and what "applicable" means): every case runs
on the host; none may give a wrong answer or a traceback (not-applicable ones included: they must be refused
with a clear error), and at least 90 % of the applicable 1-D/2-D cases must pass.  The per-op table is printed and
written to $TEST_UNDECLARED_OUTPUTS_DIR (Bazel) or the temporary directory."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import onnx_conformance  # noqa: E402

MIN_PASS_FRACTION = 0.90


def test_onnx_backend_conformance():
    with tempfile.TemporaryDirectory(prefix="onnx-conf-") as tmp:
        cases = onnx_conformance.run_conformance(tmp)
        text, applicable, passed = onnx_conformance.summarize(cases)
        out_dir = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or tmp
        with open(os.path.join(out_dir, "onnx_conformance_table.md"), "w") as f:
            f.write(text + "\n")
    print(text)
    bad = [c for c in cases if c.outcome not in ("pass", "unsupported")]
    assert not bad, "\n".join(f"{c.name}: {c.outcome}: {c.detail}" for c in bad)
    assert applicable > 300 and passed >= MIN_PASS_FRACTION * applicable, text
