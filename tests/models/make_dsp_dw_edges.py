"""Generates dsp_dw_edges_int8.tflite: int8 3x3 depthwise layers whose shapes reach every branch of the planar DSP
depthwise kernel's assembly loops (crt/src/kernels/depthwise_conv2d_s8_dsp.c: the fused stride-1 accumulation and
requantization with even and odd pair counts per row, with and without a last single output, and a near-dead
channel; the clamping layers' stride-1 accumulation over several chunks of plane rows and a part last chunk; the
full-range requantization after the stride-2 accumulation), next to its C paths (ReLU6 clamping, stride 2, the odd
last channel's single plane), for the bit-exact QEMU test of //tests/models (the host test of the same kernel runs
its portable C, not the assembly).
Seeded; no TensorFlow:

    .venv/bin/python tests/models/make_dsp_dw_edges.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder, conv_options  # noqa: E402

TARGET = os.path.join(HERE, "dsp_dw_edges_int8.tflite")

SAME, VALID = 0, 1

# stride (rows, columns), padding, fused activation (0 none, 1 ReLU, 3 ReLU6), output zero point; the comment gives
# the output image (the kernel's plane rows are its longer side) and the path.  5 channels: two channel pairs and a
# single last channel.
CHAIN = [
    ((1, 1), SAME, 0, 4),  # 28 x 9: fused, 14 pairs per row, no single output
    ((1, 1), VALID, 1, -128),  # 26 x 7, ReLU at -128 (full range): fused, 13 pairs, channel 2 near-dead
    ((1, 1), SAME, 3, -30),  # 26 x 7, ReLU6: accumulation in chunks of 6 + 1, the clamping requantization (C)
    ((2, 1), SAME, 0, 2),  # 13 x 7: stride 2 along the plane rows (C), the full-range requantization (asm)
    ((1, 1), SAME, 1, -128),  # 13 x 7: fused, 6 pairs and a single output per row
    ((1, 1), VALID, 0, -5),  # 11 x 5: fused, 5 pairs and a single output per row
]


def _layer(b, rng, x, in_scale, i, stride, padding, act, zp):
    n, h, w, c = x.shape
    wts = rng.integers(-127, 128, size=(1, 3, 3, c)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=c)
    if i == 1:
        # A near-dead channel (its multiplier flushed: the constant-channel encoding m = 0 of dsp_s8.h) in the fused
        # stride-1 loop.
        ws[2] = 1e-9
    wt = b.const(f"l{i}_w", wts, "int8", ws, 0, quantized_dimension=3)
    bias = rng.integers(-3000, 3000, size=c).astype(np.int32)
    bt = b.const(f"l{i}_b", bias, "int32", np.float32(in_scale) * ws.astype(np.float32), 0, quantized_dimension=0)
    out_scale = float(rng.uniform(0.05, 0.15))
    if padding == SAME:
        oh, ow = -(-h // stride[0]), -(-w // stride[1])
    else:
        oh, ow = (h - 3) // stride[0] + 1, (w - 3) // stride[1] + 1
    y = b.tensor(f"l{i}_y", [n, oh, ow, c], "int8", out_scale, zp)
    b.op("DEPTHWISE_CONV_2D", [x, wt, bt], y, conv_options("DEPTHWISE_CONV_2D", padding, stride, act, (1, 1), c, c))
    return y, out_scale


def dw_edges(seed: int = 28) -> ModelBuilder:
    rng = np.random.default_rng(seed)
    b = ModelBuilder("DSP depthwise edge shapes (tests/models/make_dsp_dw_edges.py)")
    x = b.input("x", [1, 28, 9, 5], "int8", 0.05, -7)
    in_scale = 0.05
    for i, (stride, padding, act, zp) in enumerate(CHAIN):
        x, in_scale = _layer(b, rng, x, in_scale, i, stride, padding, act, zp)
    b.output(x)
    return b


if __name__ == "__main__":
    dw_edges().save(TARGET)
    print(f"wrote {TARGET}")
