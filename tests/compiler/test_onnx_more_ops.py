"""ONNX Erf, Softplus, Gelu (both forms), Expand, Tile, ReduceMax / ReduceMin / ReduceSum, ArgMax / ArgMin and Pow,
all in one generated graph run on the host and compared with onnxruntime; refusals in one paragraph."""

import os
import tempfile

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx

F = TensorProto.FLOAT


def _graph():
    nodes = [
        helper.make_node("Erf", ["x"], ["erf"]),
        helper.make_node("Softplus", ["big"], ["softplus"]),
        helper.make_node("Gelu", ["x"], ["gelu"]),
        helper.make_node("Gelu", ["x"], ["gelu_tanh"], approximate="tanh"),
        helper.make_node("Expand", ["x", "eshape"], ["expand"]),
        helper.make_node("Tile", ["x", "reps"], ["tile"]),
        helper.make_node("ReduceMax", ["x", "ax12"], ["rmax"], keepdims=1),
        helper.make_node("ReduceMin", ["x", "ax0"], ["rmin"], keepdims=0),
        helper.make_node("ReduceSum", ["x", "ax12"], ["rsum"], keepdims=0),
        helper.make_node("ArgMax", ["x"], ["amax"], axis=2, keepdims=0),
        helper.make_node("ArgMin", ["x"], ["amin"], axis=-2, keepdims=1),
        helper.make_node("Abs", ["x"], ["xabs"]),
        helper.make_node("Pow", ["xabs", "p3"], ["pow"]),
        helper.make_node("Pow", ["x", "two"], ["square"]),
    ]
    inits = [
        onnx.numpy_helper.from_array(np.array(v, np.int64), k)
        for k, v in {"eshape": [3, 1, 2, 3, 1], "reps": [2, 1, 3], "ax12": [1, 2], "ax0": [0], "two": [2]}.items()
    ]
    inits.append(onnx.numpy_helper.from_array(np.array([0.5, -1.5, 3.0, 1.0], np.float32), "p3"))
    outs = {
        "erf": [2, 3, 4],
        "softplus": [2, 8],
        "gelu": [2, 3, 4],
        "gelu_tanh": [2, 3, 4],
        "expand": [3, 1, 2, 3, 4],
        "tile": [4, 3, 12],
        "rmax": [2, 1, 1],
        "rmin": [3, 4],
        "rsum": [2],
        "amax": [2, 3],
        "amin": [2, 1, 4],
        "pow": [2, 3, 4],
        "square": [2, 3, 4],
    }
    out_info = [
        helper.make_tensor_value_info(k, TensorProto.INT64 if k.startswith("a") else F, v) for k, v in outs.items()
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", F, [2, 3, 4]), helper.make_tensor_value_info("big", F, [2, 8])],
        out_info,
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)


def test_ops_match_onnxruntime():
    import onnxruntime as ort

    model = _graph()
    rng = np.random.default_rng(5)
    x = rng.normal(0, 2, (3, 2, 3, 4)).astype(np.float32)
    x[0, 0, 0, :2] = x[0, 0, 0, 2]  # a tie: ArgMax/ArgMin return the first index
    big = np.concatenate([rng.normal(0, 3, (3, 2, 4)), np.tile([[-90, -20, 25, 90]], (3, 2, 1))], -1)
    big = big.astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        np.savez(os.path.join(tmp, "in.npz"), x=x, big=big)
        run_model(path, os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz"))
        got = dict(np.load(os.path.join(tmp, "out.npz")))
        sess = ort.InferenceSession(path)
        names = [o.name for o in sess.get_outputs()]
        for i in range(len(x)):
            want = dict(zip(names, sess.run(None, {"x": x[i], "big": big[i]})))
            for name, w in want.items():
                g = got[name][i]
                if name.startswith("a"):
                    assert g.dtype == np.int32, name  # ONNX's int64 indices, narrowed for the C API
                    np.testing.assert_array_equal(g, w, err_msg=name)
                else:
                    np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6, err_msg=name)


def _one(node, shape=(2, 3)):
    g = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", F, list(shape))], [helper.make_tensor_value_info("y", F, None)]
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 20)], ir_version=9), path)
        return load_onnx(path)


@pytest.mark.parametrize(
    "node, message",
    [
        (helper.make_node("ArgMax", ["x"], ["y"], select_last_index=1), "select_last_index = 1"),
        (helper.make_node("Gelu", ["x"], ["y"], approximate="erf"), "approximate = 'erf'"),
    ],
)
def test_refusals_name_the_attribute(node, message):
    with pytest.raises(CompileError, match=message):
        _one(node)
