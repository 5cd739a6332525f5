"""Generates extreme_quant_int8.tflite: a small chain of int8 layers whose per-channel quantization is drawn to be
extreme (tests/compiler/extreme_quant_model.py: near-dead, dead and two-valued channels, biases near the int32
limits, output zero points at both ends of int8, left shifts in the last three layers), for the bit-exact QEMU
tests of //tests/models on the DSP and the specialized (Cortex-M3) kernels.  Seeded; no TensorFlow:

    .venv/bin/python tests/models/make_extreme_quant.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from extreme_quant_model import add_layer  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402

TARGET = os.path.join(HERE, "extreme_quant_int8.tflite")


def extreme_chain(seed: int = 14) -> ModelBuilder:
    rng = np.random.default_rng(seed)
    b = ModelBuilder("extreme per-channel quantization (tests/models/make_extreme_quant.py)")
    x = b.input("x", [1, 8, 8, 16], "int8", 0.05, -128)
    scales = [0.05, 0.2, 0.1, 0.3, 0.25]
    layers = [
        ("CONV_2D", 3, 16, -128, 1, False),  # ReLU, zero point at the int8 minimum
        ("DEPTHWISE_CONV_2D", 3, 16, 127, 0, True),  # zero point at the int8 maximum, left shifts
        ("CONV_2D", 1, 24, 3, 3, True),  # ReLU6, left shifts: aot_conv2d_s8_dsp_exact
        ("FULLY_CONNECTED", 0, 12, -7, 0, True),
    ]  # left shifts: aot_fully_connected_s8_dsp_exact
    for i, (kind, k, oc, zp, act, left) in enumerate(layers):
        x = add_layer(b, x, kind, k, oc, rng, zp, act, left, scales[i], scales[i + 1], name=f"l{i}")
    b.output(x)
    return b


if __name__ == "__main__":
    extreme_chain().save(TARGET)
    print(f"wrote {TARGET}")
