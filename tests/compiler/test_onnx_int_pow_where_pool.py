"""ONNX Pow with int32 operands (int32 ** int32 / float32, float32 ** int32, int64 constant exponents), Where on
raw int8 / uint8 / int32 data, ReduceMax / ReduceMin on bool and dilated pooling whose stride is not a multiple of
the dilation: each family compiled as one graph, run on the host and compared with onnxruntime (integer and bool
results exactly); refusals in one paragraph."""

import os
import tempfile

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError, UnsupportedError
from compiler.frontend.onnx_reader import load_onnx

T = TensorProto


def _run(nodes, inputs, outputs, inits, feeds, opset=18):
    """(ours, onnxruntime's) outputs of the graph for the feeds (one data set)."""
    import onnxruntime as ort

    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(k, t, s) for k, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(k, t, None) for k, t in outputs.items()],
        [onnx.numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        np.savez(os.path.join(tmp, "in.npz"), **{k: v[None] for k, v in feeds.items()})
        run_model(path, os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz"))
        got = {k: v[0] for k, v in np.load(os.path.join(tmp, "out.npz")).items()}
        sess = ort.InferenceSession(path)
        want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
    return got, want


def _exact(got, want):
    for name, w in want.items():
        assert got[name].shape == w.shape, name
        if w.dtype.kind == "f":
            np.testing.assert_allclose(got[name], w, rtol=1e-5, atol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(got[name], w.astype(got[name].dtype), err_msg=name)


def test_pow_int32_matches_onnxruntime():
    rng = np.random.default_rng(7)
    # bases and exponents near the int32 overflow, 0 / +-1 to negative powers, odd and even negative bases
    base = np.concatenate(
        [rng.integers(-12, 13, 40), [0, 0, 1, -1, -1, 2, -2, -2, 46340, 46341, -46341, 2147483647, -2147483648, 3]]
    ).astype(np.int32)
    expo = np.concatenate([rng.integers(-3, 12, 40), [0, -1, -7, -3, -4, 30, 31, 32, 2, 2, 2, 1, 1, 19]]).astype(
        np.int32
    )
    n = base.size
    fexp = (expo.astype(np.float32) + rng.choice([0.0, 0.5, 0.25], n).astype(np.float32)).astype(np.float32)
    fbase = rng.uniform(-3, 3, n).astype(np.float32)
    col = rng.integers(-4, 9, (1, 5)).astype(np.int32)  # broadcast: [4, 1] ** [1, 5]
    nodes = [
        helper.make_node("Pow", ["a", "e"], ["ii"]),
        helper.make_node("Pow", ["a", "fe"], ["if"]),
        helper.make_node("Pow", ["fb", "e"], ["fi"]),
        helper.make_node("Pow", ["a4", "col"], ["bc"]),
        helper.make_node("Pow", ["a", "big"], ["i64"]),  # int64 constant exponents beyond int32
        # a one-element exponent of 2 or 3 multiplies, wrapping (onnxruntime's shortcut), whatever its type
        helper.make_node("Pow", ["a", "three"], ["c3"]),
        helper.make_node("Pow", ["a", "two_f"], ["c2f"]),
        helper.make_node("Pow", ["a", "s"], ["rs"]),
        helper.make_node("Pow", ["a", "s2"], ["rs2"]),
        helper.make_node("Pow", ["fb", "s"], ["frs"]),
    ]
    inputs = {
        "a": (T.INT32, [n]),
        "e": (T.INT32, [n]),
        "fe": (T.FLOAT, [n]),
        "fb": (T.FLOAT, [n]),
        "a4": (T.INT32, [4, 1]),
        "col": (T.INT32, [1, 5]),
        "s": (T.INT32, [1]),
        "s2": (T.INT32, [1, 1]),
    }
    inits = {
        "big": np.array([1 << 33] * (n // 2) + [(1 << 33) + 1] * (n - n // 2), np.int64),
        "three": np.array(3, np.int64),
        "two_f": np.array([2.0], np.float32),
    }
    feeds = {"a": base, "e": expo, "fe": fexp, "fb": fbase, "a4": np.array([[-3], [0], [2], [-1]], np.int32)}
    feeds.update(col=col, s=np.array([3], np.int32), s2=np.array([[5]], np.int32))
    outs = {"ii": T.INT32, "if": T.INT32, "fi": T.FLOAT, "bc": T.INT32, "i64": T.INT32, "c3": T.INT32}
    outs.update(c2f=T.INT32, rs=T.INT32, rs2=T.INT32, frs=T.FLOAT)
    _exact(*_run(nodes, inputs, outs, inits, feeds))


def test_where_raw_int_and_bool_reductions_match_onnxruntime():
    rng = np.random.default_rng(3)
    nodes = [
        helper.make_node("Where", ["c", "x8", "y8"], ["w8"]),
        helper.make_node("Where", ["c", "xu", "yu"], ["wu"]),
        helper.make_node("Where", ["c1", "x32", "k32"], ["w32"]),  # broadcast condition, constant y
        helper.make_node("ReduceMax", ["bm", "ax"], ["rmax"], keepdims=1),
        helper.make_node("ReduceMin", ["bm", "ax"], ["rmin"], keepdims=0),
        helper.make_node("ReduceMax", ["bm"], ["rmax_all"], keepdims=0),
        helper.make_node("ReduceMin", ["bm"], ["rmin_all"], keepdims=1),
    ]
    inputs = {
        "c": (T.BOOL, [3, 4, 5]),
        "c1": (T.BOOL, [4, 1]),
        "x8": (T.INT8, [3, 4, 5]),
        "y8": (T.INT8, [1, 4, 5]),
        "xu": (T.UINT8, [3, 4, 5]),
        "yu": (T.UINT8, [5]),
        "x32": (T.INT32, [4, 6]),
        "bm": (T.BOOL, [3, 4, 5]),
    }
    inits = {"k32": np.array([-(1 << 31), (1 << 31) - 1, 0, 7, -7, 1], np.int32), "ax": np.array([0, 2], np.int64)}
    bm = rng.random((3, 4, 5)) < 0.8
    bm[1] = True
    bm[2, 1] = False
    feeds = {
        "c": rng.random((3, 4, 5)) < 0.5,
        "c1": np.array([[True], [False], [True], [False]]),
        "x8": rng.integers(-128, 128, (3, 4, 5)).astype(np.int8),
        "y8": rng.integers(-128, 128, (1, 4, 5)).astype(np.int8),
        "xu": rng.integers(0, 256, (3, 4, 5)).astype(np.uint8),
        "yu": rng.integers(0, 256, 5).astype(np.uint8),
        "x32": rng.integers(-(1 << 31), (1 << 31) - 1, (4, 6)).astype(np.int32),
        "bm": bm,
    }
    outs = {
        "w8": T.INT8,
        "wu": T.UINT8,
        "w32": T.INT32,
        "rmax": T.BOOL,
        "rmin": T.BOOL,
        "rmax_all": T.BOOL,
        "rmin_all": T.BOOL,
    }
    _exact(*_run(nodes, inputs, outs, inits, feeds, opset=20))  # bool ReduceMax / ReduceMin: opset 20


def test_dilated_pooling_matches_onnxruntime():
    rng = np.random.default_rng(11)
    nodes, inputs, outs, feeds = [], {}, {}, {}
    for i in range(10):
        kind = "MaxPool" if i % 2 == 0 else "AveragePool"
        k = [int(v) for v in rng.integers(1, 4, 2)]
        d = [int(v) for v in rng.integers(2, 4, 2)]
        s = [int(rng.integers(1, 4)) for _ in range(2)]
        s[0] = 1 if i < 6 else s[0]  # stride 1 (never a multiple of the dilation) first
        h, w = int(rng.integers((k[0] - 1) * d[0] + 1, 10)), int(rng.integers((k[1] - 1) * d[1] + 1, 10))
        attrs = dict(kernel_shape=k, dilations=d, strides=s)
        if i % 3 == 1:
            attrs["pads"] = [int(v) for v in rng.integers(0, 2, 4)]
        if kind == "AveragePool" and i % 4 == 1:
            attrs["count_include_pad"] = 1
        if i == 8:
            attrs["ceil_mode"] = 1
        nodes.append(helper.make_node(kind, [f"x{i}"], [f"y{i}"], **attrs))
        inputs[f"x{i}"] = (T.FLOAT, [2, 3, h, w])
        outs[f"y{i}"] = T.FLOAT
        feeds[f"x{i}"] = rng.uniform(-5, 5, (2, 3, h, w)).astype(np.float32)
    nodes.append(helper.make_node("MaxPool", ["x1d"], ["y1d"], kernel_shape=[3], dilations=[2], strides=[1]))
    inputs["x1d"] = (T.FLOAT, [1, 2, 9])
    outs["y1d"] = T.FLOAT
    feeds["x1d"] = rng.uniform(-5, -1, (1, 2, 9)).astype(np.float32)
    _exact(*_run(nodes, inputs, outs, {}, feeds, opset=19))  # AveragePool dilations: opset 19


def _load(nodes, inputs, outputs, inits=None, opset=18):
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(k, t, s) for k, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(k, t, None) for k, t in outputs.items()],
        [onnx.numpy_helper.from_array(v, k) for k, v in (inits or {}).items()],
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8), path)
        return load_onnx(path)


@pytest.mark.parametrize(
    "nodes, inputs, outputs, message",
    [
        (
            [helper.make_node("Pow", ["a", "b"], ["y"])],
            {"a": (T.INT8, [4]), "b": (T.INT8, [4])},
            {"y": T.INT8},
            "Pow is supported on float32 data, and on int32 data",
        ),
        (
            [helper.make_node("Where", ["c", "a", "b"], ["y"])],
            {"c": (T.BOOL, [4]), "a": (T.BOOL, [4]), "b": (T.BOOL, [4])},
            {"y": T.BOOL},
            "Where is supported on float32 data and on raw",
        ),
        (
            [helper.make_node("ReduceSum", ["a"], ["y"])],
            {"a": (T.BOOL, [4])},
            {"y": T.BOOL},
            "only ReduceMax and ReduceMin take bool",
        ),
        (
            [helper.make_node("MaxPool", ["q"], ["y"], kernel_shape=[2, 2], dilations=[2, 2])],
            {"q": (T.UINT8, [1, 1, 5, 5])},
            {"y": T.UINT8},
            "supported on float32 data",
        ),
    ],
)
def test_refusals(nodes, inputs, outputs, message):
    with pytest.raises((CompileError, UnsupportedError), match=message) as e:
        _load(nodes, inputs, outputs)
    text = str(e.value)
    assert "\n" not in text.strip() and "Traceback" not in text
