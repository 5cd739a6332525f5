"""The field conformance suite's own machinery, on models generated here (no corpus needed): outcomes (ok, refused
by TFLite Micro too, wrong, crash), the baseline check, the baseline file and the QEMU sample choice, the skip
without a corpus, and the tables. Runs under pytest or as a Bazel py_test (its main)."""

import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

import field_baseline  # noqa: E402
import field_conformance as fc  # noqa: E402
import field_tables  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402


def _int8_add(path):
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 2], "int8", 0.05, -3)
    y = b.input("y", [1, 4, 4, 2], "int8", 0.02, 7)
    b.output(b.op("ADD", [x, y], out=b.tensor("z", [1, 4, 4, 2], "int8", 0.06, 2)))
    return b.save(path)


def _fully_connected(path, weights_dtype):
    """float32 FULLY_CONNECTED; with int8 weights it is hybrid (TFLite Micro refuses it as well)."""
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    w = np.linspace(-1, 1, 12).reshape(3, 4)
    if weights_dtype == "int8":
        w = b.const("w", np.round(w * 100).astype(np.int8), "int8", 0.01, 0)
    else:
        w = b.const("w", w.astype(np.float32), "float32")
    bias = b.const("bias", np.array([0.5, -0.25, 0.0], np.float32), "float32")
    b.output(b.op("FULLY_CONNECTED", [x, w, bias], out=b.tensor("y", [1, 3], "float32")))
    return b.save(path)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("field")
    for sub in ("ok", "hybrid"):
        os.makedirs(root / sub)
    _int8_add(root / "ok" / "add_int8.tflite")
    _fully_connected(root / "ok" / "fc_float.tflite", "float32")
    _fully_connected(root / "hybrid" / "fc_hybrid.tflite", "int8")
    return str(root)


@pytest.fixture(scope="module")
def results(corpus):
    models = fc.find_models(corpus)
    assert models == ["hybrid/fc_hybrid.tflite", "ok/add_int8.tflite", "ok/fc_float.tflite"]
    return {r.model: r for r in fc.run_suite(corpus, models, jobs=2, count=2, seed=0, log=lambda *_: None)}


def test_outcomes(results):
    assert results["ok/add_int8.tflite"].outcome == "ok", results["ok/add_int8.tflite"]
    assert results["ok/add_int8.tflite"].detail == "2 cases bit-exact"
    assert results["ok/fc_float.tflite"].outcome == "ok", results["ok/fc_float.tflite"]
    hybrid = results["hybrid/fc_hybrid.tflite"]
    assert hybrid.outcome == "refused_tflm", hybrid
    assert "hybrid" in hybrid.detail and "FULLY_CONNECTED" in hybrid.detail
    assert hybrid.tflm, "TFLite Micro's own refusal is recorded"
    assert hybrid.ops == {"FULLY_CONNECTED": 1} and hybrid.inputs == ["float32[1, 4]"]


def _run_patched(monkeypatch, corpus, module, name, replacement):
    """The suite on one model with a piece of the pipeline replaced (workers are forked: they see the patch)."""
    monkeypatch.setattr(module, name, replacement)
    return fc.run_suite(corpus, ["ok/add_int8.tflite"], jobs=1, count=2, seed=0, log=lambda *_: None)[0]


def test_wrong_crash_and_not_refused_are_caught(corpus, monkeypatch):
    import compiler.commands.run_cmd as run_cmd
    import compiler.oracle as oracle

    honest = run_cmd.execute_on_host

    def off_by_one(compiled, cases, timeout=300.0):
        return [[o.astype(o.dtype) + 1 for o in outs] for outs in honest(compiled, cases, timeout)]

    r = _run_patched(monkeypatch, corpus, run_cmd, "execute_on_host", off_by_one)
    assert r.outcome == "wrong" and "case 0: output 'z': 32 of 32 values differ" in r.detail, r

    def broken(compiled, cases, timeout=300.0):
        raise RuntimeError("generated program failed (-11): ")

    r = _run_patched(monkeypatch, corpus, run_cmd, "execute_on_host", broken)
    assert r.outcome == "crash" and "(-11)" in r.detail, r

    def refuses(*args, **kwargs):
        raise RuntimeError("TFLM failed to allocate tensors")

    r = _run_patched(monkeypatch, corpus, oracle, "tflm_outputs", refuses)
    assert r.outcome == "not_refused" and "TFLite Micro cannot run it" in r.detail, r
    assert fc.failures([r], []), "a model TFLite Micro cannot run must not compile"


def test_failures_name_bad_outcomes_and_baseline_regressions(results):
    rs = list(results.values())
    assert fc.failures(rs, ["ok/add_int8.tflite", "not/in/this/run.tflite"]) == []
    msgs = fc.failures(rs, ["hybrid/fc_hybrid.tflite"])
    assert len(msgs) == 1 and "passes on main" in msgs[0]
    wrong = fc.Result("x.tflite", {}, [], 1, "wrong", "case 0: output 'y': 1 of 3 values differ")
    crash = fc.Result("y.tflite", {}, [], 1, "crash", "boom", error="Traceback ...")
    assert [m.split(":")[0] for m in fc.failures(rs + [wrong, crash], [])] == ["x.tflite", "y.tflite"]


def test_compare():
    class T:
        def __init__(self, dtype):
            self.dtype, self.name = dtype, "out"

    f = [T("float32")]
    want = [np.array([1.0, -2.0, 0.0], np.float32)]
    assert fc.compare([want[0] * (1 + 5e-6)], want, f) == ""
    assert "1 of 3 values differ" in fc.compare([want[0] + np.float32([0, 0, 1e-3])], want, f)
    i = [T("int8")]
    assert fc.compare([np.int8([1, 2])], [np.int8([1, 2])], i) == ""
    assert "max |diff| 1" in fc.compare([np.int8([1, 3])], [np.int8([1, 2])], i)


def test_reasons_group_models_refused_for_the_same_cause():
    a = fc.first_sentence("Unsupported operator: SVDF (operators 1, 3, 5). Supported TFLite operators are: ADD.")
    assert a == "Unsupported operator: SVDF (operators 1, 3, 5)."
    assert fc.reason_key(a) == "Unsupported operator: SVDF (operators N)."
    k1 = fc.reason_key("Model input tensor 'a/b' has element type int16; model inputs must be int8.")
    k2 = fc.reason_key("Model input tensor 'c...' (300 characters) has element type int16; model inputs must be int8.")
    assert k1 == k2 and "int16" in k1 and "int8" in k1


def test_baseline_file_round_trip_and_sample(results, tmp_path):
    path = str(tmp_path / "baseline.bzl")
    written = field_baseline.update(list(results.values()), path)
    assert written.passing == ["ok/add_int8.tflite", "ok/fc_float.tflite"]
    # One model per operator: ADD and FULLY_CONNECTED each need their own.
    assert [m for m, _, _ in written.qemu_sample] == ["ok/add_int8.tflite", "ok/fc_float.tflite"]
    assert written.qemu_sample[0][1] == "field_ok_add_int8"
    again = field_baseline.read(path)
    assert again.passing == written.passing and again.qemu_sample == written.qemu_sample


def test_tables(results):
    text = field_tables.render(list(results.values()), ["ok/add_int8.tflite"], 1.0)
    assert "3 models: **2 ok**, 0 refused, 1 refused (TFLite Micro cannot run them either), 0 wrong" in text
    assert "| FULLY_CONNECTED | 2 | 1 | 0 | 1 | 0 | 0 |" in text
    assert (
        "| `hybrid/fc_hybrid.tflite` | FULLY_CONNECTED | float32[1, 4] | refused (TFLM cannot run it either) |" in text
    )


def test_skips_without_a_corpus(tmp_path, capsys):
    assert fc.main(["--models_dir", str(tmp_path / "absent")]) == 0
    assert "SKIPPED" in capsys.readouterr().out


def test_main_writes_tables_and_passes(corpus, tmp_path, capsys):
    out = tmp_path / "tables"
    assert fc.main(["--models_dir", corpus, "--quiet", "--count", "1", "--jobs", "1", "--out_dir", str(out)]) == 0
    assert (out / "field_conformance.md").read_text().startswith("## Field conformance")
    assert '"outcome": "refused_tflm"' in (out / "field_conformance.json").read_text()


if __name__ == "__main__":
    sys.exit(pytest.main([os.path.abspath(__file__), "-q", "-p", "no:cacheprovider", "-rs"]))
