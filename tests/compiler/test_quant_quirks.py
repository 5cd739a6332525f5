"""Per-channel quantization quirks that real converters emit and TFLite Micro runs: they compile and are
bit-exact.

- A rank-1 bias whose per-channel quantization declares another dimension (TFLite Micro's person_detect.tflite:
  8 bias values, quantized_dimension 3); TFLite Micro never reads a bias's declared dimension.
- A filter whose scales, one per output channel, declare another dimension of the same length (TFLite Micro
  checks only that both lengths equal the scale count and applies the scales per output channel).
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from compiler.driver import load_model  # noqa: E402
from test_dsp_kernels import _check, _extremes, needs_tflm  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402


def quirky_conv(in_c, oc, k, filter_dim, bias_dim, seed=0):
    """A CONV_2D (SAME, ReLU) with per-channel filter scales declared along filter_dim and bias along bias_dim."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", (1, 9, 8, in_c), "int8", 0.02, -3)
    ws = rng.uniform(0.002, 0.02, oc)
    w = b.const(
        "w", rng.integers(-127, 128, (oc, k, k, in_c)).astype(np.int8), "int8", ws, 0, quantized_dimension=filter_dim
    )
    bias = b.const(
        "b",
        rng.integers(-5000, 5000, oc).astype(np.int32),
        "int32",
        np.float32(0.02) * ws.astype(np.float32),
        0,
        quantized_dimension=bias_dim,
    )
    y = b.tensor("y", (1, 9, 8, oc), "int8", 0.1, -128)
    b.op(
        "CONV_2D",
        [x, w, bias],
        y,
        {
            "padding": 0,
            "strideH": 1,
            "strideW": 1,
            "fusedActivationFunction": 1,
            "dilationHFactor": 1,
            "dilationWFactor": 1,
        },
    )
    b.output(y)
    return b


@needs_tflm
@pytest.mark.parametrize("target", ["host", "cortex-m3", "cortex-m4"])
@pytest.mark.parametrize(
    "in_c,oc,k,filter_dim,bias_dim",
    [
        (1, 8, 3, 0, 3),  # person_detect's first layer: a rank-1 bias declaring dimension 3
        (8, 8, 1, 3, 0),  # filter scales declared along the input channels (same length)
        (4, 4, 3, 3, 2),  # both
    ],
)
def test_quirky_per_channel_dimensions_bit_exact(tmp_path, in_c, oc, k, filter_dim, bias_dim, target):
    path = quirky_conv(in_c, oc, k, filter_dim, bias_dim, seed=oc + k).save(tmp_path / "q.tflite")
    _check(tmp_path, path, extra_cases=_extremes(load_model(path)), target=target)
