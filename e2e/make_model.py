"""Generates tiny_mobilenet_int8.tflite, the consumer workspace's own model (committed next to this script).

A miniature MobileNet-style int8 classifier: 3x3 stride-2 conv (RELU6) -> depthwise 3x3 (RELU6) -> pointwise 1x1
(RELU6) -> global average pool -> fully connected -> softmax, with per-channel weight scales as the TFLite
converter makes them. Seeded random weights: the model classifies nothing, but every value is exercised and the
reference interpreter gives defined outputs. Run from the aot_rules checkout's venv:
    .venv/bin/python e2e/make_model.py
"""

import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "compiler"))
from tflite_builder import ACT, ModelBuilder  # noqa: E402


def weights(rng, shape, channel_axis):
    """int8 weights with a symmetric per-channel scale, as the converter quantizes them."""
    w = rng.integers(-127, 128, size=shape).astype(np.int8)
    scales = rng.uniform(0.002, 0.02, size=shape[channel_axis]).astype(np.float32)
    return w, scales


def build() -> bytes:
    rng = np.random.default_rng(2026)
    b = ModelBuilder("aot_rules e2e: tiny MobileNet-style int8 classifier")
    in_s, in_zp = 0.02, -1
    act_s, act_zp = 0.03, -128  # RELU6 outputs: 0..6 over the int8 range
    x = b.input("image", [1, 16, 16, 3], "int8", in_s, in_zp)

    def conv(name, x, x_s, kind, w_shape, out_shape, stride, channel_axis):
        w, ws = weights(rng, w_shape, channel_axis)
        oc = w_shape[channel_axis]
        bias = rng.integers(-2000, 2000, size=oc).astype(np.int32)
        wt = b.const(name + "/weights", w, "int8", ws, 0, quantized_dimension=channel_axis)
        bt = b.const(name + "/bias", bias, "int32", ws * x_s, 0)
        y = b.tensor(name, out_shape, "int8", act_s, act_zp)
        opts = {"padding": 0, "strideW": stride, "strideH": stride, "fusedActivationFunction": ACT["RELU6"]}
        if kind == "DEPTHWISE_CONV_2D":
            opts["depthMultiplier"] = 1
        return b.op(kind, [x, wt, bt], out=y, options=opts)

    h = conv("stem", x, in_s, "CONV_2D", [8, 3, 3, 3], [1, 8, 8, 8], 2, 0)
    h = conv("dw", h, act_s, "DEPTHWISE_CONV_2D", [1, 3, 3, 8], [1, 8, 8, 8], 1, 3)
    h = conv("pw", h, act_s, "CONV_2D", [16, 1, 1, 8], [1, 8, 8, 16], 1, 0)
    pooled = b.op(
        "AVERAGE_POOL_2D",
        [h],
        out=b.tensor("pool", [1, 1, 1, 16], "int8", act_s, act_zp),
        options={"padding": 1, "strideW": 1, "strideH": 1, "filterWidth": 8, "filterHeight": 8},
    )
    shape = b.const("flatten/shape", np.array([1, 16], np.int32), "int32")
    flat = b.op(
        "RESHAPE",
        [pooled, shape],
        out=b.tensor("flatten", [1, 16], "int8", act_s, act_zp),
        options={"newShape": [1, 16]},
    )
    w, ws = weights(rng, [4, 16], 0)
    logits = b.op(
        "FULLY_CONNECTED",
        [
            flat,
            b.const("fc/weights", w, "int8", ws, 0),
            b.const("fc/bias", np.zeros(4, np.int32), "int32", ws * act_s, 0),
        ],
        out=b.tensor("logits", [1, 4], "int8", 0.1, 0),
    )
    scores = b.op("SOFTMAX", [logits], out=b.tensor("scores", [1, 4], "int8", 1.0 / 256, -128), options={"beta": 1.0})
    b.output(scores)
    return b.build()


if __name__ == "__main__":
    path = os.path.join(here, "tiny_mobilenet_int8.tflite")
    with open(path, "wb") as f:
        f.write(build())
    print(f"wrote {path}")
