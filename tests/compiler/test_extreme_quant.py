"""Layers whose per-channel quantization is drawn to be extreme, bit-exact with TFLite Micro on the DSP kernels
(cortex-m4) and the specialized bodies (cortex-m3), and kept on those fast kernels.

Per output channel the effective scale in * filter / out is drawn from: ordinary (2^-12..2^-7), near-dead
(2^-31..2^-23, right shifts past the old limit of 22), dead (below 2^-32: multiplier 0), with biases near the
int32 limits (a dead channel's float bias divided by its tiny scale) or ordinary; output zero points at both
ends of int8.  A separate case with effective scales >= 0.5 (left shifts) checks exactness only: those channels
may vary over the layer's accumulator range, which the short requantization cannot express.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.driver import load_model  # noqa: E402
from test_dsp_kernels import _check, _extremes, _kernels, needs_tflm  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402

IN_SCALE, OUT_SCALE = 0.05, 0.2

# kind, input shape, kernel size, output channels, DSP kernel, specialized body
LAYERS = [
    ("CONV_2D", (1, 6, 5, 16), 3, 12, "aot_conv2d_s8_dsp", "aot_conv2d_s8_body"),
    ("CONV_2D", (1, 5, 6, 32), 1, 10, "aot_conv2d_s8_dsp", "aot_conv2d_s8_body"),
    ("DEPTHWISE_CONV_2D", (1, 5, 7, 8), 3, 8, "aot_depthwise_conv2d_s8_dsp_c4", "aot_depthwise_conv2d_s8_body"),
    ("DEPTHWISE_CONV_2D", (1, 9, 8, 6), 3, 6, "aot_depthwise_conv2d_s8_dsp", "aot_depthwise_conv2d_s8_body"),
    ("FULLY_CONNECTED", (1, 64), 0, 12, "aot_fully_connected_s8_dsp", "aot_fully_connected_s8_body"),
]


def _effective_scales(rng, n, left_shifts):
    """Per channel (effective scale, at an output step): the second marks near-dead channels whose bias is put
    where the output steps between two values (bias * scale = +-0.5), the channels the short form cannot take
    with their own right shift when the zero point is large."""
    kind = rng.integers(0, 5, n)
    e = np.where(kind == 0, 2.0 ** rng.uniform(-12, -7, n),
        np.where(kind == 1, 2.0 ** rng.uniform(-31, -23, n),
        np.where(kind == 2, 2.0 ** rng.uniform(-40, -33, n), 2.0 ** rng.uniform(-28, -24, n))))
    if left_shifts:
        e[::3] = 2.0 ** rng.uniform(-1, 1.5, len(e[::3]))
    return e, (kind == 4) & (e < 2.0 ** -20)


def extreme_layer(kind, in_shape, k, oc, seed, out_zp, act, left_shifts=False):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", in_shape, "int8", IN_SCALE, int(rng.integers(-128, 128)))
    eff, edge = _effective_scales(rng, oc, left_shifts)
    ws = eff * OUT_SCALE / IN_SCALE
    if kind == "FULLY_CONNECTED":
        fshape, axis, taps = (oc, in_shape[1]), 0, in_shape[1]
    elif kind == "CONV_2D":
        fshape, axis, taps = (oc, k, k, in_shape[3]), 0, k * k * in_shape[3]
    else:
        fshape, axis, taps = (1, k, k, oc), 3, k * k
    wts = rng.integers(-127, 128, size=fshape).astype(np.int8)
    limit = (1 << 31) - 1 - 128 * 127 * taps
    big = rng.random(oc) < 0.4
    bias = np.where(big, rng.integers(-limit, limit + 1, oc), rng.integers(-3000, 3000, oc))
    edge_bias = np.round(rng.choice([-0.5, 0.5], oc) / eff) + rng.integers(-2000, 2000, oc)
    bias = np.where(edge, np.clip(edge_bias, -limit, limit), bias).astype(np.int32)
    wt = b.const("w", wts, "int8", ws, 0, quantized_dimension=axis)
    bt = b.const("b", bias, "int32", np.float32(IN_SCALE) * ws.astype(np.float32), 0, quantized_dimension=0)
    if kind == "FULLY_CONNECTED":
        y = b.tensor("y", [in_shape[0], oc], "int8", OUT_SCALE, out_zp)
        b.op(kind, [x, wt, bt], y, {"fusedActivationFunction": act})
    else:
        n, h, w, _ = in_shape
        y = b.tensor("y", [n, h, w, oc], "int8", OUT_SCALE, out_zp)
        opts = {"padding": 0, "strideH": 1, "strideW": 1, "fusedActivationFunction": act,
                "dilationHFactor": 1, "dilationWFactor": 1}
        if kind == "DEPTHWISE_CONV_2D":
            opts["depthMultiplier"] = 1
        b.op(kind, [x, wt, bt], y, opts)
    b.output(y)
    return b


CASES = [(layer, zp, act) for layer in range(len(LAYERS)) for zp, act in ((-128, 1), (127, 0), (-128, 3), (5, 0))]


@needs_tflm
@pytest.mark.parametrize("target", ["cortex-m4", "cortex-m3"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_extreme_channels_on_fast_kernels(tmp_path, case, target):
    layer, zp, act = CASES[case]
    kind, shape, k, oc, dsp, body = LAYERS[layer]
    path = extreme_layer(kind, shape, k, oc, 100 + case, zp, act).save(tmp_path / "x.tflite")
    _check(tmp_path, path, count=6, seed=case, extra_cases=_extremes(load_model(path)), target=target)
    assert _kernels(path, target)[0] == (dsp if target == "cortex-m4" else body)


@needs_tflm
@pytest.mark.parametrize("target", ["cortex-m4", "cortex-m3"])
@pytest.mark.parametrize("layer", range(len(LAYERS)))
def test_left_shift_channels_bit_exact(tmp_path, layer, target):
    kind, shape, k, oc, _, _ = LAYERS[layer]
    path = extreme_layer(kind, shape, k, oc, 7 + layer, -3, 0, left_shifts=True).save(tmp_path / "l.tflite")
    _check(tmp_path, path, count=4, extra_cases=_extremes(load_model(path)), target=target)


MODELS = os.path.join(os.path.dirname(__file__), "..", "models")


@needs_tflm
@pytest.mark.parametrize("target", ["cortex-m4", "cortex-m3"])
def test_near_dead_mobilenet_on_fast_kernels(tmp_path, target):
    """tests/models/make_near_dead.py's MobileNet v1 (about 10 % of the channels with effective scales below
    2^-24): bit-exact, and every convolution and depthwise layer on the core's fast kernel."""
    path = os.path.join(MODELS, "mobilenet_v1_025_96_near_dead_int8.tflite")
    _check(tmp_path, path, count=3, extra_cases=_extremes(load_model(path)), target=target)
    fast = ("_dsp", "_dsp_c4") if target == "cortex-m4" else ("_body",)
    kinds = [k for k in _kernels(path, target) if "conv" in k]
    assert kinds and all(k.endswith(fast) for k in kinds), kinds
