"""ONNX operators rewritten into standard ones during normalization (compiler/frontend/onnx_decompose.py):
DepthToSpace (DCR, CRD) / SpaceToDepth, LayerNormalization, InstanceNormalization, GroupNormalization, and LSTM /
GRU / RNN (forward, reverse, bidirectional, initial states as inputs, all outputs, peepholes, both
GRU linear_before_reset forms). Each single-operator model runs on the host and is compared with onnxruntime.
Tolerance: the data movement ops are exact (compared exactly); the normalizations and recurrent layers compute the
same formulas with sums in another order, so they agree to float32 rounding: rtol 1e-5, atol 1e-5 (observed
differences are a few ulps)."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx

F = TensorProto.FLOAT


def _run(tmp_path, node, inputs: dict, inits: dict, outputs: list, opset=17, exact=False, cases=3, seed=0):
    """inputs: name -> shape (float32, random per case); node: one node or a list of them."""
    import onnxruntime as ort

    g = helper.make_graph(
        node if isinstance(node, list) else [node],
        "g",
        [helper.make_tensor_value_info(n, F, list(s)) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, F, None) for n in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits.items()],
    )
    path = str(tmp_path / "m.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8), path)
    rng = np.random.default_rng(seed)
    feeds = {n: rng.normal(0, 1, (cases,) + tuple(s)).astype(np.float32) for n, s in inputs.items()}
    np.savez(tmp_path / "in.npz", **feeds)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = dict(np.load(tmp_path / "out.npz"))
    sess = ort.InferenceSession(path)
    for i in range(cases):
        want = sess.run(outputs, {n: v[i] for n, v in feeds.items()})
        for name, w in zip(outputs, want):
            assert got[name][i].shape == w.shape, name
            if exact:
                np.testing.assert_array_equal(got[name][i], w, err_msg=name)
            else:
                np.testing.assert_allclose(got[name][i], w, rtol=1e-5, atol=1e-5, err_msg=name)
    return load_onnx(path)


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space(tmp_path, mode):
    node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode=mode)
    _run(tmp_path, node, {"x": (1, 12, 3, 4)}, {}, ["y"], exact=True)


def test_space_to_depth(tmp_path):
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2)
    _run(tmp_path, node, {"x": (1, 3, 4, 6)}, {}, ["y"], exact=True)


@pytest.mark.parametrize("axis", [-1, 1])
def test_layer_normalization(tmp_path, axis):
    rng = np.random.default_rng(1)
    shape = (2, 5, 8)
    pshape = shape[axis:] if axis > 0 else shape[-1:]
    inits = {"s": rng.normal(1, 0.2, pshape).astype(np.float32), "b": rng.normal(0, 0.2, pshape).astype(np.float32)}
    node = helper.make_node("LayerNormalization", ["x", "s", "b"], ["y"], axis=axis, epsilon=1e-5)
    _run(tmp_path, node, {"x": shape}, inits, ["y"])


def test_instance_normalization(tmp_path):
    rng = np.random.default_rng(2)
    inits = {"s": rng.normal(1, 0.2, 4).astype(np.float32), "b": rng.normal(0, 0.2, 4).astype(np.float32)}
    node = helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], epsilon=1e-5)
    _run(tmp_path, node, {"x": (1, 4, 5, 6)}, inits, ["y"])


def test_group_normalization(tmp_path):
    rng = np.random.default_rng(3)
    inits = {"s": rng.normal(1, 0.2, 2).astype(np.float32), "b": rng.normal(0, 0.2, 2).astype(np.float32)}
    node = helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2, epsilon=1e-5)
    _run(tmp_path, node, {"x": (1, 6, 4, 5)}, inits, ["y"], opset=18)


def test_parameters_dequantized_from_constants(tmp_path):
    """What onnxruntime's QDQ quantizer leaves: InstanceNormalization's scale as DequantizeLinear of int8 (a scalar
    scale) and its bias of int32 (a one-element scale, a scalar zero point), a GRU's W of uint8 per axis with zero
    points; the rewrites read their dequantized values, (q - zero_point) * scale in float32 as onnxruntime."""
    rng = np.random.default_rng(8)
    w = rng.normal(0, 0.4, (1, 15, 4)).astype(np.float32)
    w_scale = (np.abs(w).max(axis=(0, 2)) / 100).astype(np.float32)
    w_zp = rng.integers(100, 156, 15).astype(np.uint8)
    w_q = np.clip(np.round(w / w_scale[None, :, None]) + w_zp[None, :, None], 0, 255).astype(np.uint8)
    inits = {
        "s_q": rng.integers(-127, 128, 4).astype(np.int8),
        "s_scale": np.array(0.0125, np.float32),
        "s_zp": np.array(0, np.int8),
        "b_q": rng.integers(-3000, 3000, 4).astype(np.int32),
        "b_scale": np.array([1.3e-4], np.float32),
        "b_zp": np.array(0, np.int32),
        "w_q": w_q,
        "w_scale": w_scale,
        "w_zp": w_zp,
        "R": rng.normal(0, 0.4, (1, 15, 5)).astype(np.float32),
    }
    nodes = [
        helper.make_node("DequantizeLinear", ["s_q", "s_scale", "s_zp"], ["s"]),
        helper.make_node("DequantizeLinear", ["b_q", "b_scale", "b_zp"], ["b"]),
        helper.make_node("InstanceNormalization", ["x", "s", "b"], ["n"], epsilon=1e-5),
        helper.make_node("Reshape", ["n", "to_seq"], ["seq"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zp"], ["W"], axis=1),
        helper.make_node("GRU", ["seq", "W", "R"], ["y"], hidden_size=5),
    ]
    inits["to_seq"] = np.array([6, 1, 4], np.int64)
    _run(tmp_path, nodes, {"x": (1, 4, 2, 3)}, inits, ["n", "y"], opset=13)


def _rnn_weights(kind, dirs, hs, isz, seed, peepholes=False):
    ng = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    rng = np.random.default_rng(seed)
    inits = {
        "W": rng.normal(0, 0.4, (dirs, ng * hs, isz)).astype(np.float32),
        "R": rng.normal(0, 0.4, (dirs, ng * hs, hs)).astype(np.float32),
        "B": rng.normal(0, 0.2, (dirs, 2 * ng * hs)).astype(np.float32),
    }
    if peepholes:
        inits["P"] = rng.normal(0, 0.3, (dirs, 3 * hs)).astype(np.float32)
    return inits


@pytest.mark.parametrize(
    "direction, layout, peepholes",
    [("forward", 0, False), ("reverse", 0, True), ("bidirectional", 0, False), ("bidirectional", 0, True)],
)
def test_lstm(tmp_path, direction, layout, peepholes):
    dirs, hs, isz, t, b = (2 if direction == "bidirectional" else 1), 6, 5, 4, 2
    inits = _rnn_weights("LSTM", dirs, hs, isz, 4, peepholes)
    xs = (b, t, isz) if layout else (t, b, isz)
    ss = (b, dirs, hs) if layout else (dirs, b, hs)
    ins = ["x", "W", "R", "B", "", "h0", "c0"] + (["P"] if peepholes else [])
    node = helper.make_node("LSTM", ins, ["y", "yh", "yc"], hidden_size=hs, direction=direction, layout=layout)
    g = _run(tmp_path, node, {"x": xs, "h0": ss, "c0": ss}, inits, ["y", "yh", "yc"], opset=14)
    assert not any(op.kind == "UNIDIRECTIONAL_SEQUENCE_LSTM" for op in g.ops)


@pytest.mark.parametrize("lbr, direction", [(0, "forward"), (1, "forward"), (1, "bidirectional")])
def test_gru(tmp_path, lbr, direction):
    dirs, hs, isz, t, b = (2 if direction == "bidirectional" else 1), 5, 3, 5, 1
    inits = _rnn_weights("GRU", dirs, hs, isz, 5)
    node = helper.make_node(
        "GRU", ["x", "W", "R", "B", "", "h0"], ["y", "yh"], hidden_size=hs, direction=direction, linear_before_reset=lbr
    )
    _run(tmp_path, node, {"x": (t, b, isz), "h0": (dirs, b, hs)}, inits, ["y", "yh"], opset=14)


def test_rnn_without_initial_state(tmp_path):
    inits = _rnn_weights("RNN", 1, 4, 3, 6)
    node = helper.make_node("RNN", ["x", "W", "R", "B"], ["y", "yh"], hidden_size=4)
    _run(tmp_path, node, {"x": (3, 2, 3)}, inits, ["y", "yh"], opset=14)


@pytest.mark.parametrize(
    "attrs, message",
    [
        (dict(activations=["Relu", "Tanh"]), r"\(GRU\): activations \['Relu', 'Tanh'\] not supported"),
        (dict(layout=1), r"\(GRU\): layout = 1 \(batch-first"),
        (dict(clip=3.0), r"\(GRU\): clip 3.0 not supported"),
    ],
)
def test_unsupported_attributes_are_named(tmp_path, attrs, message):
    inits = _rnn_weights("GRU", 1, 4, 3, 7)
    node = helper.make_node("GRU", ["x", "W", "R", "B"], ["y"], hidden_size=4, **attrs)
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", F, [2, 1, 3])],
        [helper.make_tensor_value_info("y", F, None)],
        [numpy_helper.from_array(a, n) for n, a in inits.items()],
    )
    path = str(tmp_path / "m.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], ir_version=8), path)
    with pytest.raises(CompileError, match=message):
        load_onnx(path)
