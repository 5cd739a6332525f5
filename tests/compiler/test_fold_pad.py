"""PAD folded into the convolution that reads it (passes/fold_pad.py).

Which graphs fold (and which must not), that the padded tensor then gets no memory, and bit-exactness against
TFLite Micro of the folded layers with every kernel family: the portable kernels (host), the DSP kernels
(cortex-m4, run as their portable emulations) and the shape-specialized ones (cortex-m0), int8 and float32.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, extreme_cases, needs_tflm  # noqa: E402

from compiler.driver import compile_model, load_model  # noqa: E402

SAME, VALID = 0, 1
IN_Q = (0.05, -3)
IN16_Q, OUT16_Q = (1e-3, 0), (2e-3, 0)  # int16 activations are symmetric


def _in_q(dtype):
    return {"int8": IN_Q, "int16": IN16_Q}.get(dtype, (None, None))


def _weights(b, rng, name, kind, ic, oc, k, dtype):
    """Filter and bias of a k x k CONV_2D (oc x k x k x ic) or DEPTHWISE_CONV_2D (1 x k x k x oc)."""
    fshape = (oc, k, k, ic) if kind == "CONV_2D" else (1, k, k, oc)
    if dtype == "float32":
        return (
            b.const(name + "_w", rng.uniform(-1, 1, size=fshape).astype(np.float32), "float32"),
            b.const(name + "_b", rng.uniform(-1, 1, size=oc).astype(np.float32), "float32"),
        )
    ws = rng.uniform(0.002, 0.01, size=oc)
    w = b.const(
        name + "_w",
        rng.integers(-127, 128, size=fshape).astype(np.int8),
        "int8",
        ws,
        0,
        quantized_dimension=0 if kind == "CONV_2D" else 3,
    )
    btype = "int64" if dtype == "int16" else "int32"
    bias = b.const(
        name + "_b",
        rng.integers(-3000, 3000, size=oc).astype(btype),
        btype,
        np.float32(_in_q(dtype)[0]) * np.asarray(ws, np.float32),
        0,
        quantized_dimension=0,
    )
    return w, bias


def pad_conv(
    b,
    rng,
    name,
    x,
    shape,
    pads,
    kind="DEPTHWISE_CONV_2D",
    oc=None,
    k=3,
    stride=1,
    padding=VALID,
    value=None,
    dtype="int8",
    out_q=(0.08, -5),
):
    """PAD (PADV2 with `value`) of x by pads ([[before, after]] * 4), then a k x k convolution; returns
    (padded tensor, convolution output)."""
    n, h, w, c = shape
    ic = c + sum(pads[3])
    oc = oc or ic
    q = _in_q(dtype)
    ph, pw = h + sum(pads[1]), w + sum(pads[2])
    padded = b.tensor(name + "_padded", [n + sum(pads[0]), ph, pw, ic], dtype, *q)
    ins = [x, b.const(name + "_pads", np.array(pads, np.int32), "int32")]
    if value is not None:
        ins.append(b.const(name + "_value", np.array([value]), dtype, *q))
    b.op("PADV2" if value is not None else "PAD", ins, padded)
    if padding == SAME:
        oh, ow = -(-ph // stride), -(-pw // stride)
    else:
        oh, ow = (ph - k) // stride + 1, (pw - k) // stride + 1
    wt, bias = _weights(b, rng, name, kind, ic, oc, k, dtype)
    out = b.tensor(name, [n, oh, ow, oc], dtype, *{"int8": out_q, "int16": OUT16_Q}.get(dtype, (None, None)))
    opts = {"padding": padding, "strideH": stride, "strideW": stride, "fusedActivationFunction": 0}
    if kind == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = oc // ic
    b.op(kind, [padded, wt, bias], out, opts)
    return padded, out


def folding_model(dtype, seed=0):
    """Four PAD -> convolution branches of one input: MobileNet's stride-2 depthwise with pad (0, 1), a conv with
    asymmetric pads (1, 2) / (2, 1), a depthwise with padding as wide as the filter (windows wholly outside the
    image) and a PAD before a SAME convolution (both paddings add up); and a depthwise over a second input smaller
    than its filter, and one whose windows all lie in the padding."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    shape = (1, 9, 8, 8)
    x = b.input("x", list(shape), dtype, *_in_q(dtype))
    outs = [
        pad_conv(b, rng, "dw_s2", x, shape, [[0, 0], [0, 1], [0, 1], [0, 0]], stride=2, dtype=dtype)[1],
        pad_conv(b, rng, "conv", x, shape, [[0, 0], [1, 2], [2, 1], [0, 0]], kind="CONV_2D", oc=4, dtype=dtype)[1],
        pad_conv(b, rng, "dw_wide", x, shape, [[0, 0], [3, 3], [0, 4], [0, 0]], dtype=dtype)[1],
        pad_conv(
            b,
            rng,
            "conv_same",
            x,
            shape,
            [[0, 0], [1, 0], [0, 1], [0, 0]],
            kind="CONV_2D",
            oc=8,
            stride=2,
            padding=SAME,
            dtype=dtype,
        )[1],
    ]
    # A 3 x 1 image padded by 2 all round under a 3x3 filter: no window lies inside the image.
    t = b.input("t", [1, 3, 1, 8], dtype, *_in_q(dtype))
    outs.append(pad_conv(b, rng, "dw_tiny", t, (1, 3, 1, 8), [[0, 0], [2, 2], [2, 2], [0, 0]], dtype=dtype)[1])
    # Stride 4 past a left padding of 9: the windows never reach the image.
    outs.append(pad_conv(b, rng, "dw_far", t, (1, 3, 1, 8), [[0, 0], [0, 0], [9, 0], [0, 0]], stride=4, dtype=dtype)[1])
    b.output(*outs)
    return b


def _compiled(path, target="host"):
    compiled = compile_model(str(path), "m", target)
    assert compiled.plan.overlapping_live_pairs() == []
    ops = compiled.manifest["ops"]
    offsets = {t.name: compiled.plan.tensor_offset.get(t.index) for t in compiled.graph.tensors}
    return ops, offsets


def _pads(ops):
    return [op for op in ops if op["kind"] in ("PAD", "PADV2")]


FOLDED = [
    # dtype, target, kernels the six convolutions must use (the model is built so that every family runs)
    (
        "int8",
        "host",
        [
            "aot_depthwise_conv2d_s8",
            "aot_conv2d_s8",
            "aot_depthwise_conv2d_s8",
            "aot_conv2d_s8",
            "aot_depthwise_conv2d_s8",
            "aot_depthwise_conv2d_s8",
        ],
    ),
    # (strided or small depthwise layers take the channel-vectorized _c4 kernel, the wide one the planar kernel)
    (
        "int8",
        "cortex-m4",
        [
            "aot_depthwise_conv2d_s8_dsp_c4",
            "aot_conv2d_s8_dsp",
            "aot_depthwise_conv2d_s8_dsp",
            "aot_conv2d_s8_dsp",
            "aot_depthwise_conv2d_s8_dsp_c4",
            "aot_depthwise_conv2d_s8_dsp_c4",
        ],
    ),
    (
        "int8",
        "cortex-m0",
        [
            "aot_depthwise_conv2d_s8_body",
            "aot_conv2d_s8_body",
            "aot_depthwise_conv2d_s8_body",
            "aot_conv2d_s8_body",
            "aot_depthwise_conv2d_s8_body",
            "aot_depthwise_conv2d_s8_body",
        ],
    ),
    (
        "int16",
        "host",
        [
            "aot_depthwise_conv2d_s16",
            "aot_conv2d_s16",
            "aot_depthwise_conv2d_s16",
            "aot_conv2d_s16",
            "aot_depthwise_conv2d_s16",
            "aot_depthwise_conv2d_s16",
        ],
    ),
    (
        "float32",
        "host",
        [
            "aot_depthwise_conv2d_f32",
            "aot_conv2d_f32",
            "aot_depthwise_conv2d_f32",
            "aot_conv2d_f32",
            "aot_depthwise_conv2d_f32",
            "aot_depthwise_conv2d_f32",
        ],
    ),
]


@needs_tflm
@pytest.mark.parametrize("dtype,target,kernels", FOLDED, ids=[f"{c[0]}_{c[1]}" for c in FOLDED])
def test_pad_folded_into_convolution(tmp_path, dtype, target, kernels):
    b = folding_model(dtype, seed=3)
    path = b.save(tmp_path / "model.tflite")
    ops, off = _compiled(path, target)
    pads = _pads(ops)
    assert len(pads) == 6
    for pad, kernel in zip(pads, kernels):
        conv = ops[pad["fused_into"]]
        assert conv["index"] == pad["index"] + 1 and conv["fused_ops"] == [pad["index"]]
        assert conv["kernel"] == kernel and pad["kernel"] is None
    # The padded tensors are never stored.
    assert [off[n + "_padded"] for n in ("dw_s2", "conv", "dw_wide", "conv_same", "dw_tiny", "dw_far")] == [None] * 6
    graph = load_model(path)
    extra = extreme_cases(graph) if dtype == "int8" else ()
    check_against_tflm(tmp_path, b, seed=5, target=target, extra_cases=extra)


def _single(tmp_path, dtype="int8", **kw):
    """One PAD -> convolution model; returns (builder, path, pad's manifest entry, offsets)."""
    rng = np.random.default_rng(11)
    b = ModelBuilder()
    shape = (1, 6, 6, 4)
    x = b.input("x", list(shape), dtype, *(IN_Q if dtype == "int8" else (None, None)))
    pads = kw.pop("pads", [[0, 0], [1, 1], [1, 1], [0, 0]])
    _, y = pad_conv(b, rng, "y", x, shape, pads, dtype=dtype, **kw)
    b.output(y)
    path = b.save(tmp_path / "model.tflite")
    ops, off = _compiled(path)
    return b, path, _pads(ops)[0], off


@needs_tflm
def test_padv2_with_the_zero_point_is_folded(tmp_path):
    b, _, pad, off = _single(tmp_path, value=IN_Q[1], kind="CONV_2D", oc=4)
    assert pad["kind"] == "PADV2" and pad["fused_into"] == 1 and off["y_padded"] is None
    check_against_tflm(tmp_path, b, seed=1)


@needs_tflm
def test_not_folded_with_padding_on_channels(tmp_path):
    # Depthwise with depth multiplier 2 over the padded 4 + 2 channels: 12 output channels.
    b, _, pad, off = _single(tmp_path, pads=[[0, 0], [1, 1], [1, 1], [1, 1]], oc=12)
    assert pad["fused_into"] is None and pad["kernel"] == "aot_pad_s8" and off["y_padded"] is not None
    check_against_tflm(tmp_path, b, seed=2)


@needs_tflm
def test_not_folded_when_the_pad_value_is_not_the_zero_point(tmp_path):
    b, _, pad, _ = _single(tmp_path, value=7, kind="CONV_2D", oc=4)
    assert pad["kind"] == "PADV2" and pad["fused_into"] is None and pad["kernel"] == "aot_pad_s8"
    check_against_tflm(tmp_path, b, seed=3)


@needs_tflm
def test_not_folded_in_float_when_the_pad_value_is_not_zero(tmp_path):
    b, _, pad, _ = _single(tmp_path, dtype="float32", value=0.5)
    assert pad["fused_into"] is None and pad["kernel"] == "aot_pad_f32"
    check_against_tflm(tmp_path, b, seed=4)


@needs_tflm
def test_not_folded_when_the_padded_tensor_is_read_twice(tmp_path):
    rng = np.random.default_rng(12)
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "int8", *IN_Q)
    padded, y = pad_conv(b, rng, "y", x, (1, 6, 6, 4), [[0, 0], [1, 1], [1, 1], [0, 0]])
    z = b.tensor("z", [1, 8, 8, 4], "int8", 0.1, 2)
    b.op("ADD", [padded, padded], z)
    b.output(y, z)
    path = b.save(tmp_path / "model.tflite")
    ops, off = _compiled(path)
    assert _pads(ops)[0]["fused_into"] is None and off["y_padded"] is not None
    check_against_tflm(tmp_path, b, seed=5)


@needs_tflm
def test_not_folded_when_the_padded_tensor_is_a_model_output(tmp_path):
    rng = np.random.default_rng(13)
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "int8", *IN_Q)
    padded, y = pad_conv(b, rng, "y", x, (1, 6, 6, 4), [[0, 0], [0, 1], [0, 1], [0, 0]], stride=2)
    b.output(y, padded)
    path = b.save(tmp_path / "model.tflite")
    ops, _ = _compiled(path)
    assert _pads(ops)[0]["fused_into"] is None
    check_against_tflm(tmp_path, b, seed=6)


@needs_tflm
@pytest.mark.parametrize("pool", ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
def test_not_folded_into_pooling(tmp_path, pool):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "int8", *IN_Q)
    padded = b.tensor("padded", [1, 7, 7, 4], "int8", *IN_Q)
    b.op("PAD", [x, b.const("pads", np.array([[0, 0], [0, 1], [0, 1], [0, 0]], np.int32), "int32")], padded)
    y = b.tensor("y", [1, 3, 3, 4], "int8", *IN_Q)
    b.op(
        pool,
        [padded],
        y,
        {
            "padding": VALID,
            "strideH": 2,
            "strideW": 2,
            "filterHeight": 3,
            "filterWidth": 3,
            "fusedActivationFunction": 0,
        },
    )
    b.output(y)
    path = b.save(tmp_path / "model.tflite")
    ops, off = _compiled(path)
    assert _pads(ops)[0]["fused_into"] is None and off["padded"] is not None
    check_against_tflm(tmp_path, b, seed=7)
