"""`aotc quantize` (what aot_quantize runs in the build): onnxruntime's static quantizer on the committed PyTorch CNN
(tests/quantize/make_torch_cnn.py) gives the same bytes on every run (the action must be reproducible for the
remote cache), a report of the float-vs-int8 agreement, a quantized model the compiler runs on its int8 kernels,
one paragraph naming the output, figure and threshold when a threshold is not met, and clear refusals (a quantized
model, a calibration set that does not fit the model's inputs). A float .tflite: test_quantize_tflite.py."""

import json
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler import cli
from compiler.driver import load_model

HERE = os.path.dirname(os.path.abspath(__file__))
QDIR = os.path.join(HERE, "..", "quantize")
MODEL = os.path.join(QDIR, "torch_cnn_float.onnx")
CALIB = os.path.join(QDIR, "torch_cnn_calib.npz")


def _quantize(tmp_path, capsys, *extra, model=MODEL, calib=CALIB, out="q"):
    rc = cli.main(
        ["aotc", "quantize", model, "--calibration", calib, "--prefix", "net", "--out_dir", str(tmp_path / out)]
        + list(extra)
    )
    return rc, capsys.readouterr()


def test_quantize_reports_agreement_reproducibly_and_compiles(tmp_path, capsys):
    rc, out = _quantize(tmp_path, capsys, "--min_top1", "0.98", "--min_snr_db", "40", "--max_abs_error", "0.2")
    assert rc == 0, out.err
    assert "output 'logits' over 64 samples: top-1 agreement 100.00%" in out.out
    report = json.load(open(tmp_path / "q" / "net_quantize.json"))
    (logits,) = report["outputs"]
    assert logits["output"] == "logits" and logits["samples"] == 64
    assert logits["top1_agreement"] == 1.0 and 40 < logits["snr_db"] < 60 and 0 < logits["max_abs_error"] < 0.2
    assert report["thresholds"] == {"min_top1": 0.98, "min_snr_db": 40.0, "max_abs_error": 0.2}
    # The same inputs give the same bytes (a Bazel action's outputs must be reproducible).
    rc, _ = _quantize(tmp_path, capsys, "--min_top1", "0.98", "--min_snr_db", "40", "--max_abs_error", "0.2", out="r")
    assert rc == 0
    for name in ("net.onnx", "net_quantize.json"):
        assert (tmp_path / "q" / name).read_bytes() == (tmp_path / "r" / name).read_bytes(), name
    # QDQ with int8 activations and per-channel symmetric int8 weights: the compiler runs it on the int8 kernels.
    g = load_model(str(tmp_path / "q" / "net.onnx"))
    convs = [op for op in g.ops if op.kind == "CONV_2D"]
    assert len(convs) == 2 and all(op.outputs[0].dtype == "int8" for op in convs)
    assert all(len(op.inputs[1].quant.scale) == op.inputs[1].shape[0] for op in convs)
    assert "FULLY_CONNECTED" in [op.kind for op in g.ops]


def test_threshold_above_the_agreement_fails_with_one_paragraph(tmp_path, capsys):
    rc, out = _quantize(tmp_path, capsys, "--min_snr_db", "60")
    assert rc == 2
    err = " ".join(out.err.split())
    assert err.count("aotc: error:") == 1 and "Traceback" not in err
    assert "output 'logits' of torch_cnn_float.onnx" in err
    assert "45.19 dB" in err and "threshold of 60 dB (min_snr_db)" in err
    assert not (tmp_path / "q" / "net.onnx").exists(), "a model under the threshold must not be left for the build"
    rc, out = _quantize(tmp_path, capsys, "--max_abs_error", "0.01")
    assert rc == 2 and "over the threshold of 0.01 (max_abs_error)" in out.err


def test_quantized_model_is_refused(tmp_path, capsys):
    path = os.path.join(HERE, "..", "models", "onnx_cnn_qdq.onnx")
    np.savez(tmp_path / "c.npz", input=np.zeros((2, 1, 3, 16, 16), np.float32))
    rc, out = _quantize(tmp_path, capsys, model=path, calib=str(tmp_path / "c.npz"))
    assert rc == 2 and "is quantized already" in out.err and "QuantizeLinear" in out.err


@pytest.mark.parametrize(
    "arrays, want",
    [
        ({"y": np.zeros((4, 1, 1, 16, 16), np.float32)}, "missing ['x']"),
        ({"x": np.zeros((4, 1, 8, 8), np.float32)}, "has shape (4, 1, 8, 8)"),
        ({"x": np.full((4, 1, 16, 16), np.nan, np.float32)}, "NaN"),
    ],
)
def test_calibration_that_does_not_fit_is_refused(tmp_path, capsys, arrays, want):
    np.savez(tmp_path / "c.npz", **arrays)
    rc, out = _quantize(tmp_path, capsys, calib=str(tmp_path / "c.npz"))
    assert rc == 2 and want in out.err and "Traceback" not in out.err


def test_top1_threshold_needs_a_classifier(tmp_path, capsys):
    node = helper.make_node("Relu", ["x"], ["y"])
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "relu.onnx")
    np.savez(tmp_path / "c.npz", x=np.random.default_rng(0).normal(size=(8, 1, 2, 3)).astype(np.float32))
    rc, out = _quantize(
        tmp_path, capsys, "--min_top1", "0.9", model=str(tmp_path / "relu.onnx"), calib=str(tmp_path / "c.npz")
    )
    assert rc == 2 and "none of its outputs is a classifier's scores" in out.err


def test_qdq_exact_requantizes_once_and_tests_for_equality(tmp_path, capsys, monkeypatch):
    """--qdq_exact: the convolutions and the Gemm of the quantized CNN become integer products in float32 followed by
    QUANTIZE_ONNX (one rounding, half to even); the generated test then requires equal outputs. Without the flag the
    int8 kernels run and one step is allowed. (//tests/quantize:torch_cnn_test runs the C on the host and QEMU.)"""
    from compiler.frontend import qdq_mode
    from compiler.oracle import output_tolerances

    rc, out = _quantize(tmp_path, capsys)
    assert rc == 0, out.err
    path = str(tmp_path / "q" / "net.onnx")
    g = load_model(path)
    assert [op.kind for op in g.ops].count("QUANTIZE_ONNX") == 1  # the input only
    assert output_tolerances(path, g)[0][0] == 1
    monkeypatch.setattr(qdq_mode, "EXACT", True)
    g = load_model(path)
    kinds = [op.kind for op in g.ops]
    requant = [op for op in g.ops if op.kind == "QUANTIZE_ONNX" and op.options["Mode"] == "multiply"]
    assert len(requant) == 3 and kinds.count("CONV_2D") == 2 and "FULLY_CONNECTED" in kinds
    assert all(op.outputs[0].dtype == "float32" for op in g.ops if op.kind in ("CONV_2D", "FULLY_CONNECTED"))
    assert output_tolerances(path, g) == [(0, 0.0, 0.0)]
    # The command line sets it for one command only.
    monkeypatch.setattr(qdq_mode, "EXACT", False)
    assert cli.main(["aotc", "info", path, "--qdq_exact"]) == 0 and not qdq_mode.EXACT


def test_qdq_exact_runs_elementwise_arithmetic_as_written(tmp_path, monkeypatch):
    """--qdq_exact on a QDQ Mul (DequantizeLinear x2 -> Mul -> QuantizeLinear): the float product quantized once, as
    onnxruntime computes the graph as written (graph optimizations off), so every output is equal; the int8 kernel
    (TFLite's fixed-point multiply, two roundings) lands one step off at some ties of the same seeded data."""
    import onnxruntime as ort

    from compiler.commands.run_cmd import run_model
    from compiler.frontend import qdq_mode

    consts = [("sa", 0.0371), ("za", 3), ("sb", 0.0213), ("zb", -7), ("sy", 0.459), ("zy", -2)]
    inits = [
        helper.make_tensor(n, TensorProto.FLOAT if isinstance(v, float) else TensorProto.INT8, [], [v])
        for n, v in consts
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["a", "sa", "za"], ["af"]),
        helper.make_node("DequantizeLinear", ["b", "sb", "zb"], ["bf"]),
        helper.make_node("Mul", ["af", "bf"], ["yf"]),
        helper.make_node("QuantizeLinear", ["yf", "sy", "zy"], ["y"]),
    ]
    shape = [1, 8, 8, 4]
    graph = helper.make_graph(
        nodes,
        "qdq_mul",
        [helper.make_tensor_value_info(n, TensorProto.INT8, shape) for n in ("a", "b")],
        [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
        inits,
    )
    path = str(tmp_path / "mul.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8), path)
    rng = np.random.default_rng(4)
    feeds = {n: rng.integers(-128, 128, size=[8] + shape, dtype=np.int8) for n in ("a", "b")}
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(path, options)
    want = np.stack([sess.run(None, {n: v[i] for n, v in feeds.items()})[0] for i in range(8)])
    np.savez(tmp_path / "in.npz", **feeds)
    off = {}
    for exact in (False, True):
        monkeypatch.setattr(qdq_mode, "EXACT", exact)
        run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
        diff = np.abs(np.load(tmp_path / "out.npz")["y"].astype(np.int32) - want.astype(np.int32))
        assert diff.max() <= 1
        off[exact] = int((diff > 0).sum())
    assert off[True] == 0 and off[False] > 0, off
