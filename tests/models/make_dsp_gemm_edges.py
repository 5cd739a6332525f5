"""Generates dsp_gemm_edges_int8.tflite: a chain of int8 convolutions whose shapes reach every branch of the DSP
convolution GEMM's assembly loop (crt/src/kernels/conv2d_s8_dsp.c: one to three quads of K before the four-quad
passes, leftover taps after the quads, an odd last output channel, the unrolled K = 8 form) and part last tiles of
one and two pixels (40 and 20 output pixels), for the bit-exact QEMU test of //tests/models (the host test of the
same kernel runs its portable C, not the assembly).  Seeded; no TensorFlow:

    .venv/bin/python tests/models/make_dsp_gemm_edges.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder, conv_options  # noqa: E402

TARGET = os.path.join(HERE, "dsp_gemm_edges_int8.tflite")

# kernel size, output channels, stride (rows, columns), fused activation (0 none, 1 ReLU, 3 ReLU6), output zero point;
# the comment gives K = k * k * input channels as quads (their count modulo 4 runs before the passes) + leftover taps.
LAYERS = [
    (1, 9, (1, 1), 0, 5),  # K = 20: 5 quads (1 before the passes), 9 channels (odd), 40 pixels (a part tile of 1)
    (3, 12, (1, 1), 3, -20),  # K = 81: 20 quads + 1 leftover (in_c 9: the gathered im2col), ReLU6 (clamping GEMM)
    (1, 7, (1, 1), 1, -128),  # K = 12: 3 quads (3 before the passes), 7 channels
    (3, 8, (1, 2), 0, 9),  # K = 63: 15 quads (3 before) + 3 leftovers, 5 x 4 = 20 pixels (a part tile of 2)
    (1, 6, (1, 1), 0, -3),  # K = 8: aot_conv2d_s8_dsp_k8, two quads unrolled
]


def gemm_edges(seed: int = 28) -> ModelBuilder:
    rng = np.random.default_rng(seed)
    b = ModelBuilder("DSP convolution GEMM edge shapes (tests/models/make_dsp_gemm_edges.py)")
    x = b.input("x", [1, 5, 8, 20], "int8", 0.05, -7)
    in_scale = 0.05
    for i, (k, oc, stride, act, zp) in enumerate(LAYERS):
        n, h, w, ic = x.shape
        wts = rng.integers(-127, 128, size=(oc, k, k, ic)).astype(np.int8)
        ws = rng.uniform(0.002, 0.01, size=oc)
        wt = b.const(f"l{i}_w", wts, "int8", ws, 0, quantized_dimension=0)
        bias = rng.integers(-3000, 3000, size=oc).astype(np.int32)
        bt = b.const(f"l{i}_b", bias, "int32", np.float32(in_scale) * ws.astype(np.float32), 0, quantized_dimension=0)
        out_scale = float(rng.uniform(0.1, 0.3))
        y = b.tensor(f"l{i}_y", [n, -(-h // stride[0]), -(-w // stride[1]), oc], "int8", out_scale, zp)
        b.op("CONV_2D", [x, wt, bt], y, conv_options("CONV_2D", 0, stride, act, (1, 1), ic, oc))
        x, in_scale = y, out_scale
    b.output(x)
    return b


if __name__ == "__main__":
    gemm_edges().save(TARGET)
    print(f"wrote {TARGET}")
