"""Generates dsp_gemm_edges_int8.tflite: a chain of int8 convolutions whose shapes reach every branch of the DSP
convolution GEMM's assembly loop (crt/src/kernels/conv2d_s8_dsp.c: one to three quads of K before the four-quad
passes, leftover taps after the quads, an odd last output channel, the unrolled K = 8 form) and part last tiles of
one and two pixels (40 and 20 output pixels), and the channel-pair routine (aot_conv_pairs) with and without a fused
residual ADD: 67 output channels (33 pairs: four full 16-channel stages and a part one, then the odd channel in C),
the ADD's two operand orders, an ADD range that is all of int8 and one that clamps (ReLU6), and a clamping
convolution with a fused ADD (the C pair loop), for the bit-exact QEMU test of //tests/models (the host test of the
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


# The fused residual ADDs, 1x1 convolutions of the input (K = 20: 5 quads) to 67 channels: (output scale, output
# zero point, fused activation) of the convolution, then of the ADD that takes it with the previous tensor.  The
# smaller of an ADD's two input scales is the operand rescaled in full: the convolution's for the first ADD, the
# residual's for the second.
RESIDUAL_CHANNELS = 67
RESIDUAL = [
    ((0.08, -128, 1), (0.3, 2, 0)),  # ReLU convolution (all of int8), ADD range all of int8
    ((0.9, 4, 0), (0.25, -10, 3)),  # ADD with ReLU6: clamps
    ((0.06, 5, 3), (0.35, 0, 0)),  # ReLU6 convolution (clamps: the C pair loop's fused ADD)
]


def _conv(b, rng, name, x, in_scale, k, oc, stride, act, out_scale, zp):
    n, h, w, ic = x.shape
    wts = rng.integers(-127, 128, size=(oc, k, k, ic)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=oc)
    wt = b.const(f"{name}_w", wts, "int8", ws, 0, quantized_dimension=0)
    bias = rng.integers(-3000, 3000, size=oc).astype(np.int32)
    bt = b.const(f"{name}_b", bias, "int32", np.float32(in_scale) * ws.astype(np.float32), 0, quantized_dimension=0)
    y = b.tensor(f"{name}_y", [n, -(-h // stride[0]), -(-w // stride[1]), oc], "int8", out_scale, zp)
    b.op("CONV_2D", [x, wt, bt], y, conv_options("CONV_2D", 0, stride, act, (1, 1), ic, oc))
    return y


def gemm_edges(seed: int = 28) -> ModelBuilder:
    rng = np.random.default_rng(seed)
    b = ModelBuilder("DSP convolution GEMM edge shapes (tests/models/make_dsp_gemm_edges.py)")
    x = b.input("x", [1, 5, 8, 20], "int8", 0.05, -7)
    x0 = x
    in_scale = 0.05
    for i, (k, oc, stride, act, zp) in enumerate(LAYERS):
        out_scale = float(rng.uniform(0.1, 0.3))
        x, in_scale = _conv(b, rng, f"l{i}", x, in_scale, k, oc, stride, act, out_scale, zp), out_scale
    # The residual chain: r = conv(x0) (no ADD: the routine's plain form with an odd last channel), then per RESIDUAL
    # entry r = ADD(conv(x0), r), each convolution fused with its ADD.
    r = _conv(b, rng, "r0", x0, 0.05, 1, RESIDUAL_CHANNELS, (1, 1), 0, 0.5, 3)
    for i, ((c_scale, c_zp, c_act), (a_scale, a_zp, a_act)) in enumerate(RESIDUAL):
        y = _conv(b, rng, f"r{i + 1}", x0, 0.05, 1, RESIDUAL_CHANNELS, (1, 1), c_act, c_scale, c_zp)
        z = b.tensor(f"r{i + 1}_add", list(y.shape), "int8", a_scale, a_zp)
        b.op("ADD", [y, r], z, {"fusedActivationFunction": a_act})
        r = z
    b.output(x, r)
    return b


if __name__ == "__main__":
    gemm_edges().save(TARGET)
    print(f"wrote {TARGET}")
