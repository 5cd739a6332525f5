"""Layers whose per-channel quantization is drawn to be extreme, bit-exact with TFLite Micro on the DSP kernels
(cortex-m4) and the specialized bodies (cortex-m3), and kept on those fast kernels.

The layers come from extreme_quant_model.py (near-dead, dead and two-valued channels, biases near the int32
limits), with output zero points at both ends of int8.  A separate case adds effective scales >= 0.5 (left
shifts), which the short requantization cannot express: the GEMM kernels' *_exact entry points take them.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.driver import compile_model, load_model  # noqa: E402
from extreme_quant_model import IN_SCALE, add_layer  # noqa: E402
from test_dsp_kernels import _check, _extremes, _kernels, needs_tflm  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402


# kind, input shape, kernel size, output channels, DSP kernel, specialized body
LAYERS = [
    ("CONV_2D", (1, 6, 5, 16), 3, 12, "aot_conv2d_s8_dsp", "aot_conv2d_s8_packed_body"),
    ("CONV_2D", (1, 5, 6, 32), 1, 10, "aot_conv2d_s8_dsp", "aot_conv2d_s8_xpair_body"),  # 1x1: packed inputs
    ("DEPTHWISE_CONV_2D", (1, 5, 7, 8), 3, 8, "aot_depthwise_conv2d_s8_dsp_c4", "aot_depthwise_conv2d_s8_body"),
    ("DEPTHWISE_CONV_2D", (1, 9, 8, 6), 3, 6, "aot_depthwise_conv2d_s8_dsp", "aot_depthwise_conv2d_s8_body"),
    ("FULLY_CONNECTED", (1, 64), 0, 12, "aot_fully_connected_s8_dsp", "aot_fully_connected_s8_packed_body"),
]


def extreme_layer(kind, in_shape, k, oc, seed, out_zp, act, left_shifts=False):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", in_shape, "int8", IN_SCALE, int(rng.integers(-128, 128)))
    b.output(add_layer(b, x, kind, k, oc, rng, out_zp, act, left_shifts))
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
    """Left shifts with outputs that vary: the DSP kernels keep their multiplies and requantize in full (the *_exact
    entry points); the specialized bodies take the exact form."""
    kind, shape, k, oc, dsp, body = LAYERS[layer]
    path = extreme_layer(kind, shape, k, oc, 7 + layer, -3, 0, left_shifts=True).save(tmp_path / "l.tflite")
    _check(tmp_path, path, count=4, extra_cases=_extremes(load_model(path)), target=target)
    if target == "cortex-m3":
        assert _kernels(path, target)[0] == body
    else:  # a depthwise layer takes the planar kernel's exact form, whatever its shape
        exact = dsp.replace("_dsp_c4", "_dsp") + "_exact("
        assert exact in compile_model(path, "m", target).files["m.c"]


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
