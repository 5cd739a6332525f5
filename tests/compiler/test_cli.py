"""The `aotc` command line end to end: compile's files and JSON, info, report, and `run` bit-exact against
the TFLite Micro interpreter on every shared model (10 seeded random inputs each, one host build per model)."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from compiler.driver import load_model
from compiler.oracle import tflm_available, tflm_outputs
from conftest import REPO, shared_model_path


def aotc(*args):
    return subprocess.run([sys.executable, "-m", "compiler", *map(str, args)], capture_output=True, text=True, cwd=REPO)


def test_compile_writes_the_files_and_a_complete_json(tmp_path):
    model = shared_model_path("kws_ref_model")
    r = aotc("compile", model, "--prefix", "kws", "--out_dir", tmp_path, "--target", "cortex-m4")
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["kws.c", "kws.h", "kws.json", "kws_plan.svg", "kws_weights.c"]
    m = json.loads((tmp_path / "kws.json").read_text())
    assert m["prefix"] == "kws" and m["target"] == "cortex-m4"
    (inp,), (out,) = m["inputs"], m["outputs"]
    assert inp["shape"] == [1, 49, 10, 1] and inp["dtype"] == "int8"
    assert inp["scale"] == pytest.approx(0.584703, rel=1e-5) and inp["zero_point"] == 83
    assert out["shape"] == [1, 12] and out["zero_point"] == -128
    # 16,000 B of tensors, plus the scratch of the Cortex-M4 (DSP) kernels (im2col of three pixels, the depthwise
    # planes: 784 B; the fused depthwise loop keeps no accumulators), all planned.
    assert m["workspace"]["size"] == m["workspace"]["lower_bound"] and 16000 < m["workspace"]["size"] <= 16800
    assert m["weight_bytes"] > 20000
    assert [op["kind"] for op in m["ops"]].count("CONV_2D") == 5 and len(m["ops"]) == 13
    header = (tmp_path / "kws.h").read_text()
    for needle in (
        f"#define KWS_WORKSPACE_SIZE {m['workspace']['size']}u",
        "struct kws_inputs",
        "struct kws_outputs",
        "int32_t kws_run(const struct kws_inputs* inputs, struct kws_outputs* outputs, void* workspace);",
    ):
        assert needle in header


def test_compile_specialize_flag(tmp_path):
    model = shared_model_path("kws_ref_model")
    r = aotc("compile", model, "--prefix", "kws", "--out_dir", tmp_path, "--target", "cortex-m3", "--specialize", "fc")
    assert r.returncode == 0, r.stderr
    src = (tmp_path / "kws.c").read_text()
    assert src.count("static void kws_") == 1 and "aot_conv2d_s8(" in src
    r = aotc("compile", model, "--prefix", "kws", "--out_dir", tmp_path, "--specialize", "pool")
    assert r.returncode == 2 and "unknown layer kind 'pool'" in r.stderr


def test_info_lists_ops_tensors_and_plan():
    r = aotc("info", shared_model_path("kws_ref_model"))
    assert r.returncode == 0, r.stderr
    for needle in ("DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "SOFTMAX", "input_1", "16000"):
        assert needle in r.stdout


def test_report_prints_and_writes(tmp_path):
    r = aotc("report", shared_model_path("kws_ref_model"), "--out_dir", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "lower bound 16,000 B: equal to the lower bound" in r.stdout
    assert "MACs" in r.stdout and "2,664,780" in r.stdout
    assert (tmp_path / "kws_ref_model.json").exists() and (tmp_path / "kws_ref_model_plan.svg").exists()


def test_console_script_is_installed():
    exe = shutil.which("aotc", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if exe is None:
        pytest.skip("the aotc console script is not on this interpreter's PATH (not an installed venv)")
    r = subprocess.run([exe, "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "compile MODEL" in r.stdout


def _random_inputs(graph, rng, count):
    arrays = {}
    for t in graph.inputs:
        if t.dtype == "int8":
            arrays[t.name] = rng.integers(-128, 128, size=(count,) + tuple(t.shape)).astype(np.int8)
        else:
            arrays[t.name] = rng.uniform(-1.5, 1.5, size=(count,) + tuple(t.shape)).astype(np.float32)
    return arrays


@pytest.mark.skipif(not tflm_available(), reason="tflite-micro is not installed (tools/setup.sh installs it)")
def test_run_matches_tflite_micro(shared_model, tmp_path):
    graph = load_model(shared_model)
    count = 10
    arrays = _random_inputs(graph, np.random.default_rng(11), count)
    np.savez(tmp_path / "in.npz", **arrays)
    r = aotc("run", shared_model, "--inputs", tmp_path / "in.npz", "--outputs", tmp_path / "out.npz")
    assert r.returncode == 0, r.stderr
    ours = np.load(tmp_path / "out.npz")
    cases = [[arrays[t.name][i] for t in graph.inputs] for i in range(count)]
    ref = tflm_outputs(shared_model, cases, len(graph.outputs))
    for k, t in enumerate(graph.outputs):
        got = ours[t.name]
        assert got.shape == (count,) + tuple(t.shape)
        for i in range(count):
            expected = np.asarray(ref[i][k]).reshape(t.shape)
            if t.dtype == "int8":
                np.testing.assert_array_equal(got[i], expected, err_msg=f"case {i}")
            else:
                np.testing.assert_allclose(got[i], expected, rtol=1e-5, atol=1e-6, err_msg=f"case {i}")
