"""Zero-size ONNX data (a model input with a 0 dimension): reductions over the empty set give onnxruntime's
identities (sum 0, product 1, max -inf / false, min +inf / true, and a Log after them -inf), reductions whose
output is empty too, Reshape with allowzero, Split into empty parts and element-wise ops on empty data compile to
no work; all in one graph run on the host against onnxruntime. Other operators refuse zero-size data in one
paragraph."""

import os
import tempfile

import numpy as np
import onnx
import onnx.reference
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError, UnsupportedError
from compiler.frontend.onnx_reader import load_onnx

T = TensorProto


def _model(nodes, inputs, outputs, inits=None, opset=20):  # bool ReduceMax / ReduceMin: opset 20
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(k, t, s) for k, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(k, t, None) for k, t in outputs.items()],
        [onnx.numpy_helper.from_array(v, k) for k, v in (inits or {}).items()],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def test_zero_size_matches_onnxruntime():
    import onnxruntime as ort

    ax1 = "ax1"
    nodes = [
        helper.make_node("ReduceSum", ["e", ax1], ["sum"], keepdims=1),
        helper.make_node("ReduceProd", ["e", ax1], ["prod"], keepdims=0),
        helper.make_node("ReduceMax", ["e", ax1], ["max"], keepdims=1),
        helper.make_node("ReduceMin", ["e"], ["min_all"], keepdims=0),
        helper.make_node("ReduceMax", ["eb", ax1], ["bmax"], keepdims=1),
        helper.make_node("ReduceMin", ["eb", ax1], ["bmin"], keepdims=0),
        helper.make_node("ReduceSum", ["e", "ax2"], ["sum_empty_out"], keepdims=1),  # the output is empty too
        helper.make_node("Abs", ["e"], ["abs"]),
        helper.make_node("Mul", ["abs", "abs"], ["sq"]),
        helper.make_node("ReduceSum", ["sq", ax1], ["sumsq"], keepdims=1),
        helper.make_node("Log", ["sumsq"], ["logsum"]),  # log(0) at run time: -inf
        helper.make_node("Reshape", ["r", "shape"], ["reshaped"], allowzero=1),
        helper.make_node("Split", ["z", "parts"], ["s0", "s1", "s2"]),
        helper.make_node("Neg", ["s1"], ["neg"]),
    ]
    inputs = {
        "e": (T.FLOAT, [2, 0, 4]),
        "eb": (T.BOOL, [3, 0, 2]),
        "r": (T.FLOAT, [0, 3, 4]),
        "z": (T.FLOAT, [0]),
        "x": (T.FLOAT, [3]),  # an ordinary input beside them
    }
    nodes.append(helper.make_node("Mul", ["x", "x"], ["xx"]))
    inits = {
        ax1: np.array([1], np.int64),
        "ax2": np.array([2], np.int64),
        "shape": np.array([3, 4, 0], np.int64),
        "parts": np.array([0, 0, 0], np.int64),
    }
    outs = dict.fromkeys("sum prod max min_all sum_empty_out logsum reshaped s0 neg s2 xx".split(), T.FLOAT) | {
        "bmax": T.BOOL,
        "bmin": T.BOOL,
    }
    model = _model(nodes, inputs, outs, inits)
    feeds = {
        "e": np.zeros((2, 0, 4), np.float32),
        "eb": np.zeros((3, 0, 2), np.bool_),
        "r": np.zeros((0, 3, 4), np.float32),
        "z": np.zeros((0,), np.float32),
        "x": np.array([1.5, -2.0, 3.0], np.float32),
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        np.savez(os.path.join(tmp, "in.npz"), **{k: v[None] for k, v in feeds.items()})
        run_model(path, os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz"))
        got = {k: v[0] for k, v in np.load(os.path.join(tmp, "out.npz")).items()}
        # onnxruntime refuses ReduceMax / ReduceMin over an empty bool set; the ONNX reference defines them (the
        # backend cases' expected values): false and true
        ref_only = ["bmax", "bmin"]
        with np.errstate(divide="ignore"):  # the reference's log(0), which is the point
            ref = dict(zip(ref_only, onnx.reference.ReferenceEvaluator(model).run(ref_only, feeds)))
        for name in ref_only:
            model.graph.output.remove(next(o for o in model.graph.output if o.name == name))
            model.graph.node.remove(next(n for n in model.graph.node if n.output[0] == name))
        onnx.save(model, path)
        sess = ort.InferenceSession(path)
        want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds))) | ref
    # the identities are what is tested
    assert (
        np.isneginf(want["max"]).all()
        and np.isposinf(want["min_all"]).all()
        and want["bmin"].all()
        and not want["bmax"].any()
    )
    for name, w in want.items():
        assert got[name].shape == w.shape, name
        np.testing.assert_array_equal(got[name], w, err_msg=name)


def _load(nodes, inputs, outputs, inits=None):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(_model(nodes, inputs, outputs, inits), path)
        return load_onnx(path)


@pytest.mark.parametrize(
    "node, dtype, message",
    [
        (helper.make_node("Softmax", ["e"], ["y"]), T.FLOAT, "reads 'e' of shape .2, 0, 4., which holds no elements"),
        (helper.make_node("ReduceMean", ["e"], ["y"]), T.FLOAT, "which holds no elements; zero-size data is supported"),
        (helper.make_node("ReduceMax", ["e"], ["y"]), T.INT32, "of type int32 has no elements; reductions over the"),
    ],
)
def test_zero_size_refusals(node, dtype, message):
    with pytest.raises((CompileError, UnsupportedError), match=message) as e:
        _load([node], {"e": (dtype, [2, 0, 4])}, {"y": dtype})
    assert node.op_type in str(e.value)
