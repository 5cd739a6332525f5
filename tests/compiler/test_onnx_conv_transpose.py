"""ONNX ConvTranspose (groups, depthwise, strides, pads, output_padding, output_shape with auto_pad, dilations, 1-D),
ReduceProd, a Tile deeper than the strided copy's 6 dimensions and a MatMul broadcasting over part of the batch, all
in one generated graph run on the host and compared with onnxruntime; refusals in one paragraph."""

import os
import tempfile

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError, UnsupportedError
from compiler.frontend.onnx_reader import load_onnx

F = TensorProto.FLOAT


def _w(rng, *shape):
    return rng.normal(0, 0.5, shape).astype(np.float32)


def _graph():
    rng = np.random.default_rng(11)
    inits = {
        "w_dense": _w(rng, 3, 5, 3, 2),  # C=3 -> M=5
        "b_dense": _w(rng, 5),
        "w_dw": _w(rng, 3, 1, 3, 3),  # depthwise: group 3, one output channel each
        "w_dw2": _w(rng, 3, 2, 2, 3),  # group 3, two output channels each (multiplier 2)
        "w_g": _w(rng, 4, 3, 2, 2),  # group 2 on 4 channels, 3 outputs per group
        "b_g": _w(rng, 6),
        "w_1d": _w(rng, 2, 3, 4),
        "reps": np.array([2, 3, 2, 3], np.int64),
    }
    nodes = [
        # stride 2x1, asymmetric pads, output_padding, dilation 2 in height
        helper.make_node(
            "ConvTranspose",
            ["x", "w_dense", "b_dense"],
            ["ct_dense"],
            strides=[2, 1],
            pads=[1, 0, 2, 1],
            output_padding=[1, 0],
            dilations=[2, 1],
        ),
        helper.make_node("ConvTranspose", ["x", "w_dw"], ["ct_dw"], group=3, strides=[2, 2], pads=[1, 1, 1, 1]),
        # output_shape with SAME_UPPER / SAME_LOWER: the pads split the total padding
        helper.make_node(
            "ConvTranspose",
            ["x", "w_dw2"],
            ["ct_same_u"],
            group=3,
            strides=[3, 2],
            output_shape=[10, 9],
            auto_pad="SAME_UPPER",
        ),
        helper.make_node(
            "ConvTranspose",
            ["x", "w_dw2"],
            ["ct_same_l"],
            group=3,
            strides=[2, 2],
            auto_pad="SAME_LOWER",
            dilations=[1, 2],
        ),
        helper.make_node(
            "ConvTranspose", ["x4", "w_g", "b_g"], ["ct_g"], group=2, strides=[1, 3], output_padding=[0, 2]
        ),
        helper.make_node("ConvTranspose", ["x1", "w_1d"], ["ct_1d"], strides=[3], output_padding=[2], pads=[1, 0]),
        helper.make_node("ReduceProd", ["x"], ["rprod"], axes=[1], keepdims=0),
        helper.make_node("Tile", ["x4", "reps"], ["tile8d"]),
        helper.make_node("MatMul", ["ma", "mb"], ["mm"]),
    ]
    ins = {"x": [1, 3, 4, 5], "x4": [2, 4, 3, 2], "x1": [1, 2, 5], "ma": [3, 1, 3, 4], "mb": [3, 2, 4, 2]}
    outs = ["ct_dense", "ct_dw", "ct_same_u", "ct_same_l", "ct_g", "ct_1d", "rprod", "tile8d", "mm"]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(k, F, v) for k, v in ins.items()],
        [helper.make_tensor_value_info(k, F, None) for k in outs],
        [onnx.numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), ins


def test_ops_match_onnxruntime():
    import onnxruntime as ort

    model, ins = _graph()
    rng = np.random.default_rng(3)
    feeds = {k: rng.uniform(-1.2, 1.2, [2] + v).astype(np.float32) for k, v in ins.items()}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        np.savez(os.path.join(tmp, "in.npz"), **feeds)
        run_model(path, os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz"))
        got = dict(np.load(os.path.join(tmp, "out.npz")))
        sess = ort.InferenceSession(path)
        names = [o.name for o in sess.get_outputs()]
        for i in range(2):
            want = dict(zip(names, sess.run(None, {k: v[i] for k, v in feeds.items()})))
            for name, w in want.items():
                assert got[name][i].shape == w.shape, name
                np.testing.assert_allclose(got[name][i], w, rtol=2e-5, atol=2e-5, err_msg=name)


def _one(node, x_shape, inits):
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", F, list(x_shape))],
        [helper.make_tensor_value_info("y", F, None)],
        [onnx.numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)
        return load_onnx(path)


@pytest.mark.parametrize(
    "x_shape, w_shape, attrs, message",
    [
        ([1, 2, 3, 3, 3], [2, 2, 2, 2, 2], {}, "3-D ones are not"),
        ([1, 2, 4, 4], [2, 2, 3, 3], dict(pads=[-1, 0, 0, 0]), "pads"),
        ([1, 3, 4, 4], [3, 2, 3, 3], dict(group=2), "do not fit the input"),
    ],
)
def test_conv_transpose_refusals(x_shape, w_shape, attrs, message):
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], **attrs)
    with pytest.raises((CompileError, UnsupportedError), match=message) as e:
        _one(node, x_shape, {"w": np.ones(w_shape, np.float32)})
    assert "ConvTranspose" in str(e.value)
