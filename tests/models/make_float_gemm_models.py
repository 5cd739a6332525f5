"""Generates two float32 models (committed next to this script).

float_gemm.tflite: the float32 model of the FPU / Helium GEMM kernels'
QEMU test (tests/models/BUILD.bazel, on the Cortex-M4F, M33 and M55): a 3x3 SAME convolution of 3 input
channels (K = 27: whole passes and a tail of taps; 7 output channels: a part block), a DEPTHWISE_CONV_2D with one
input channel (the GEMM form), a strided 1x1 convolution with RELU6, a RESHAPE and a FULLY_CONNECTED of batch 3
(a row pair and a single row) with RELU; 25 pixels per map (an odd last pixel); and, as a second output, a
depthwise 3x3 of 7 channels with RELU and a 1x1 convolution to 16 channels (whole blocks) without activation;
as third and fourth outputs, with RELU, a 1x1 convolution to 8 channels and a gathered 3x4 stride-2 convolution
of one channel;
from a second input, depthwise 3x3 layers of 6 channels down columns of 11 rows (SAME, VALID with
RELU6, stride 2 and dilation 2 along x), and short columns of 8 channels. Weights and biases seeded random.

kws_float_gen.tflite (bench): the float32 DS-CNN of MLPerf Tiny's keyword spotting (the shared kws_ref_model's
architecture; the field corpus's kws_ref_model_float32 is hybrid, int8 weights, and cannot be compiled): a 10x4
stride-2 convolution to 64 channels, four depthwise 3x3 + pointwise 64 blocks, average pooling and a 12-way
FULLY_CONNECTED with SOFTMAX, weights seeded random (He-scaled); 23 K parameters, so it fits the Cortex-M55 board
that pretrainedResnet_large_float's 1.9 MB do not.

Uses tests/compiler/tflite_builder.py (no TensorFlow):
  .venv/bin/python tests/models/make_float_gemm_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder  # noqa: E402


def _conv(b, rng, kind, x, in_c, kh, kw, oc, out_shape, stride=1, padding=0, act=0, name="c"):
    fshape = (oc, kh, kw, in_c) if kind == "CONV_2D" else (1, kh, kw, oc)
    w = b.const(name + "_w", rng.uniform(-0.5, 0.5, fshape).astype(np.float32), "float32")
    bias = b.const(name + "_b", rng.uniform(-0.2, 0.2, oc).astype(np.float32), "float32")
    y = b.tensor(name + "_y", out_shape, "float32")
    opts = {"padding": padding, "strideH": stride, "strideW": stride, "fusedActivationFunction": act}
    if kind == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = oc // in_c
    b.op(kind, [x, w, bias], y, opts)
    return y


def float_gemm() -> ModelBuilder:
    rng = np.random.default_rng(2828)
    b = ModelBuilder("float_gemm")
    x = b.input("x", [1, 5, 5, 3], "float32")
    c1 = _conv(b, rng, "CONV_2D", x, 3, 3, 3, 7, [1, 5, 5, 7], name="conv3x3")
    # One channel of it through a depthwise layer of one input channel: slice-free, a 1x1 convolution picks it.
    c2 = _conv(b, rng, "CONV_2D", c1, 7, 1, 1, 1, [1, 5, 5, 1], name="pick")
    c3 = _conv(b, rng, "DEPTHWISE_CONV_2D", c2, 1, 3, 2, 6, [1, 5, 5, 6], name="dw_ic1")
    c4 = _conv(b, rng, "CONV_2D", c3, 6, 1, 1, 9, [1, 3, 3, 9], stride=2, padding=0, act=3, name="conv1x1_s2")
    flat = b.tensor("flat", [3, 27], "float32")
    shape = b.const("shape", np.array([3, 27], np.int32), "int32")
    b.op("RESHAPE", [c4, shape], flat, {"newShape": [3, 27]})
    w = b.const("fc_w", rng.uniform(-0.5, 0.5, (10, 27)).astype(np.float32), "float32")
    bias = b.const("fc_b", rng.uniform(-0.2, 0.2, 10).astype(np.float32), "float32")
    y = b.tensor("y", [3, 10], "float32")
    b.op("FULLY_CONNECTED", [flat, w, bias], y, {"fusedActivationFunction": 1})
    b.output(y)
    # A second output: a depthwise layer of 7 channels (a whole quad and a part one) with RELU, and a 1x1
    # convolution to 16 channels (whole blocks on every core) without activation: the registers' bias and clamp.
    d1 = _conv(b, rng, "DEPTHWISE_CONV_2D", c1, 7, 3, 3, 7, [1, 5, 5, 7], act=1, name="dw_relu")
    y2 = _conv(b, rng, "CONV_2D", d1, 7, 1, 1, 16, [1, 5, 5, 16], name="conv1x1_16")
    b.output(y2)
    # Third and fourth outputs, with RELU (FPv4's outputs in the core registers): a 1x1 convolution to 8 channels
    # (Helium's three-pixel tile, and for the odd last pixel its pair tile with both rows one pixel) and a 3x4 stride-2
    # SAME convolution of one channel to 8 (gathered windows, whole blocks: the pair tiles with their outputs).
    b.output(_conv(b, rng, "CONV_2D", d1, 7, 1, 1, 8, [1, 5, 5, 8], act=1, name="conv1x1_relu"))
    b.output(_conv(b, rng, "CONV_2D", c2, 1, 3, 4, 8, [1, 3, 3, 8], stride=2, act=1, name="gather_relu"))
    # A second input, 11 rows of 4 columns of 6 channels, through depthwise 3x3 layers that slide down the columns
    # (depthwise_conv2d_f32_vec.c): SAME without activation (3 rows at a time, whole and part channel groups),
    # VALID with RELU6 (a remainder row; FPv4 takes the pairs of pixels), and SAME with stride 2 or dilation 2 along x.
    x2 = b.input("x2", [1, 11, 4, 6], "float32")

    def dw(x, out_shape, name, padding=0, stride=(1, 1), dilation=(1, 1), act=0, c=6):
        w = b.const(name + "_w", rng.uniform(-0.5, 0.5, (1, 3, 3, c)).astype(np.float32), "float32")
        bt = b.const(name + "_b", rng.uniform(-0.2, 0.2, c).astype(np.float32), "float32")
        y = b.tensor(name + "_y", out_shape, "float32")
        opts = {"padding": padding, "strideH": stride[0], "strideW": stride[1], "fusedActivationFunction": act}
        opts.update({"dilationHFactor": dilation[0], "dilationWFactor": dilation[1], "depthMultiplier": 1})
        b.op("DEPTHWISE_CONV_2D", [x, w, bt], y, opts)
        return y

    e1 = dw(x2, [1, 11, 4, 6], "dw_same")
    b.output(dw(e1, [1, 9, 2, 6], "dw_valid", padding=1, act=3))
    b.output(dw(x2, [1, 11, 2, 6], "dw_stride_w", stride=(1, 2), act=1))
    b.output(dw(x2, [1, 11, 4, 6], "dw_dilation_w", dilation=(1, 2), act=1))
    # Short columns, 8 channels: 4 rows SAME (no row of the loop, two after it), then VALID to 2 rows of 1 column.
    x3 = b.input("x3", [1, 4, 3, 8], "float32")
    b.output(dw(dw(x3, [1, 4, 3, 8], "dw_short", c=8), [1, 2, 1, 8], "dw_short_valid", padding=1, act=1, c=8))
    return b


def kws_float() -> ModelBuilder:
    rng = np.random.default_rng(4910)
    b = ModelBuilder("kws_float_gen")

    def conv(kind, x, in_c, kh, kw, oc, shape, stride, name):
        fshape = (oc, kh, kw, in_c) if kind == "CONV_2D" else (1, kh, kw, oc)
        scale = np.sqrt(2.0 / (kh * kw * (in_c if kind == "CONV_2D" else 1)))
        w = b.const(name + "_w", (rng.standard_normal(fshape) * scale).astype(np.float32), "float32")
        bias = b.const(name + "_b", rng.uniform(-0.1, 0.1, oc).astype(np.float32), "float32")
        y = b.tensor(name + "_y", shape, "float32")
        opts = {"padding": 0, "strideH": stride[0], "strideW": stride[1], "fusedActivationFunction": 1}
        if kind == "DEPTHWISE_CONV_2D":
            opts["depthMultiplier"] = 1
        b.op(kind, [x, w, bias], y, opts)
        return y

    x = b.input("x", [1, 49, 10, 1], "float32")
    h = conv("CONV_2D", x, 1, 10, 4, 64, [1, 25, 5, 64], (2, 2), "conv0")
    for i in range(4):
        h = conv("DEPTHWISE_CONV_2D", h, 64, 3, 3, 64, [1, 25, 5, 64], (1, 1), f"dw{i}")
        h = conv("CONV_2D", h, 64, 1, 1, 64, [1, 25, 5, 64], (1, 1), f"pw{i}")
    pooled = b.tensor("pool", [1, 1, 1, 64], "float32")
    b.op(
        "AVERAGE_POOL_2D",
        [h],
        pooled,
        {"padding": 1, "strideH": 1, "strideW": 1, "filterHeight": 25, "filterWidth": 5, "fusedActivationFunction": 0},
    )
    flat = b.tensor("flat", [1, 64], "float32")
    b.op("RESHAPE", [pooled, b.const("shape", np.array([1, 64], np.int32), "int32")], flat, {"newShape": [1, 64]})
    w = b.const("fc_w", (rng.standard_normal((12, 64)) * 0.2).astype(np.float32), "float32")
    logits = b.tensor("logits", [1, 12], "float32")
    b.op("FULLY_CONNECTED", [flat, w, b.const("fc_b", np.zeros(12, np.float32), "float32")], logits, {})
    y = b.tensor("y", [1, 12], "float32")
    b.op("SOFTMAX", [logits], y, {"beta": 1.0})
    b.output(y)
    return b


def main() -> None:
    print(float_gemm().save(os.path.join(HERE, "float_gemm.tflite")))
    print(kws_float().save(os.path.join(HERE, "kws_float_gen.tflite")))


if __name__ == "__main__":
    main()
