"""ONNX weights passed as graph inputs: inputs with an initializer default are constants; `--freeze_input
NAME=FILE.npy` makes the others constants; mistakes are one clear paragraph."""

import os
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx
from compiler.frontend.shape_flags import parse_frozen

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _model(path):
    """y = x @ w + b; w is a free graph input, b a graph input with an initializer (IR v3 exporters' style)."""
    b = np.array([0.5, -1.0, 2.0], np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])]
    g = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]),
            helper.make_tensor_value_info("w", TensorProto.FLOAT, [4, 3]),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, [3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        initializer=[helper.make_tensor("b", TensorProto.FLOAT, [3], b)],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8), path)
    return b


def test_initializer_inputs_are_constants_and_frozen_inputs_too(tmp_path):
    path = str(tmp_path / "m.onnx")
    _model(path)
    names = {t.name for t in load_onnx(path).inputs}
    assert "b" not in names and "x" in names
    w = np.random.default_rng(1).normal(size=(4, 3)).astype(np.float32)
    g = load_onnx(path, frozen={"w": w})
    assert [t.name for t in g.inputs] == ["x"]


def test_frozen_model_matches_onnxruntime(tmp_path):
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    b = _model(path)
    rng = np.random.default_rng(2)
    w = rng.normal(size=(4, 3)).astype(np.float32)
    x = rng.normal(size=(5, 2, 4)).astype(np.float32)
    np.save(tmp_path / "w.npy", w)
    np.savez(tmp_path / "in.npz", x=x)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "compiler",
            "run",
            path,
            "--inputs",
            str(tmp_path / "in.npz"),
            "--outputs",
            str(tmp_path / "out.npz"),
            "--freeze_input",
            f"w={tmp_path / 'w.npy'}",
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    got = np.load(tmp_path / "out.npz")["y"]
    sess = ort.InferenceSession(path)
    want = np.stack([sess.run(None, {"x": xi, "w": w, "b": b})[0] for xi in x])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "value, message",
    [
        (np.zeros((4, 3), np.int32), "holds int32 values; the input is FLOAT"),
        (np.zeros((3, 4), np.float32), "the array has shape [3, 4]; the input's shape is [4, 3]"),
    ],
)
def test_frozen_value_must_fit_the_input(tmp_path, value, message):
    path = str(tmp_path / "m.onnx")
    _model(path)
    with pytest.raises(CompileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_onnx(path, frozen={"w": value})


def test_unknown_or_initialized_names_are_refused(tmp_path):
    path = str(tmp_path / "m.onnx")
    _model(path)
    for name in ("nope", "b"):
        with pytest.raises(CompileError, match="free inputs are: w, x"):
            load_onnx(path, frozen={name: np.zeros((3,), np.float32)})


def test_parse_frozen(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(3, dtype=np.int32))
    got = parse_frozen([f"a={tmp_path / 'a.npy'}"])
    assert list(got) == ["a"] and got["a"].tolist() == [0, 1, 2]
    with pytest.raises(CompileError, match="is not NAME=FILE.npy"):
        parse_frozen(["a"])
    with pytest.raises(CompileError, match="cannot read"):
        parse_frozen([f"a={tmp_path / 'missing.npy'}"])
