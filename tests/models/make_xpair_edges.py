"""Generates xpair_edges_int8.tflite: a chain of int8 convolutions for the paths of the Cortex-M3's packed-input body
(crt/include/aot/kernels/conv2d_s8_xpair_inline.h) that the networks do not all reach: a strided stem with padded
borders and an odd output width, dilated columns (packed tap by tap), a 3x3x64 layer whose sums leave the low
lane's bound over its 576 taps on typical inputs (hence runs of 255 taps: 255 + 255 + 66), a pointwise layer on an
odd pixel count and channel counts that leave the last group of four part-empty.  For the bit-exact QEMU test of
//tests/models with `--specialize=conv,depthwise,fc,xpair`.  Seeded; no TensorFlow:

    .venv/bin/python tests/models/make_xpair_edges.py
"""

import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder, conv_options  # noqa: E402

TARGET = os.path.join(HERE, "xpair_edges_int8.tflite")

# kh, kw, oc, stride, dilation, padding (0 SAME, 1 VALID), fused activation
LAYERS = [
    (3, 3, 6, (2, 2), (1, 1), 0, 1),  # the stem: 9x9x3 -> 5x5x6 (odd width, a part-empty group)
    (3, 3, 64, (1, 1), (1, 2), 0, 0),  # dilated columns
    (3, 3, 10, (1, 1), (1, 1), 0, 0),  # 576 taps of weights near +-127: the lane bound fails, runs of 255
    (1, 1, 7, (1, 1), (1, 1), 0, 0),  # pointwise, 25 pixels: the odd last one alone
]


def xpair_chain(seed: int = 28) -> ModelBuilder:
    rng = np.random.default_rng(seed)
    b = ModelBuilder("the M3 packed-input body's edges (tests/models/make_xpair_edges.py)")
    in_scale, zp = 0.05, -9
    x = b.input("x", [1, 9, 9, 3], "int8", in_scale, zp)
    h, w, ic = 9, 9, 3
    for i, (kh, kw, oc, stride, dil, pad, act) in enumerate(LAYERS):
        wts = rng.integers(-127, 128, size=(oc, kh, kw, ic)).astype(np.int8)
        if i == 2:
            # Weights near +-127, the first five channels' all positive: over inputs near the int8 maximum (the layer
            # before has its zero point at 90) their sums leave [-2^22, 2^22) within one run of 576 taps.
            wts = (np.sign(wts) * rng.integers(100, 128, size=wts.shape)).astype(np.int8)
            wts[:5] = np.abs(wts[:5])
        ws = rng.uniform(0.002, 0.01, size=oc)
        wt = b.const(f"w{i}", wts, "int8", ws, 0, quantized_dimension=0)
        bias = rng.integers(-2000, 2000, size=oc).astype(np.int32)
        bt = b.const(f"b{i}", bias, "int32", np.float32(in_scale) * ws.astype(np.float32), 0, quantized_dimension=0)
        eff_h, eff_w = (kh - 1) * dil[0] + 1, (kw - 1) * dil[1] + 1
        if pad == 0:
            h, w = -(-h // stride[0]), -(-w // stride[1])
        else:
            h, w = (h - eff_h) // stride[0] + 1, (w - eff_w) // stride[1] + 1
        # An output scale that spreads the sums over int8: their spread is about 50 x 75 x sqrt(taps) steps.
        out_scale = float(in_scale * ws.mean() * 50 * 75 * math.sqrt(kh * kw * ic) / 40)
        zp = 90 if i == 1 else int(rng.integers(-20, 20))
        y = b.tensor(f"y{i}", [1, h, w, oc], "int8", out_scale, zp)
        b.op("CONV_2D", [x, wt, bt], y, conv_options("CONV_2D", pad, stride, act, dil, ic, oc))
        x, in_scale, ic = y, out_scale, oc
    b.output(x)
    return b


if __name__ == "__main__":
    xpair_chain().save(TARGET)
    print(f"wrote {TARGET}")
