"""A graph input written with a -1 dimension (paddle2onnx's way of saying "dynamic", e.g. RapidOCR's direction
classifier [-1, 3, ?, ?]) is read as an unknown dimension, as onnxruntime reads it: refused until pinned with
--input_shape, then compiled and matching onnxruntime."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler import driver
from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx


def _model(path):
    w = np.random.default_rng(3).normal(size=(4, 3)).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"]), helper.make_node("Relu", ["y"], ["z"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [-1, 4])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [-1, 3])],
        [helper.make_tensor("w", TensorProto.FLOAT, [4, 3], w.ravel())],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)


def test_negative_dimension_is_unknown_and_must_be_pinned(tmp_path):
    path = str(tmp_path / "m.onnx")
    _model(path)
    with pytest.raises(CompileError, match=r"unknown dimension.*--input_shape x="):
        load_onnx(path)


def test_negative_dimension_pinned_with_input_shape_matches_onnxruntime(tmp_path):
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(path)
    assert list(load_onnx(path, input_shapes={"x": [2, 4]}).inputs[0].shape) == [2, 4]
    x = np.random.default_rng(4).normal(size=(2, 2, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    driver.ONNX_INPUT_SHAPES["x"] = [2, 4]  # aotc --input_shape x=2,4
    try:
        run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    finally:
        driver.ONNX_INPUT_SHAPES.clear()
    got = dict(np.load(tmp_path / "out.npz"))
    sess = ort.InferenceSession(path)
    for i in range(len(x)):
        np.testing.assert_allclose(got["z"][i], sess.run(["z"], {"x": x[i]})[0], rtol=1e-5, atol=1e-6)
