"""Generates the small decoder models committed next to this script: TRANSPOSE_CONV (the upsampling layer of audio
and segmentation decoders) between convolutions, in three quantizations, for bit-exact model tests on the host and
under QEMU (tests/models/BUILD.bazel):
- decoder_int8.tflite: int8 per-channel CONV_2D (RELU) -> TRANSPOSE_CONV 3x3 stride 2 SAME -> TRANSPOSE_CONV 3x4
  stride (1, 2) VALID (SEANet's decoder shape);
- decoder_int16.tflite: the same chain in int16x8 (int16 activations, int8 weights, int64 biases) with a
  DEPTHWISE_CONV_2D and a CONV_2D whose int64 bias does not fit int32 (the "wide" accumulation form);
- decoder_float.tflite: the chain in float32;
- seanet_block_int16.tflite: one SEANet decoder block at its real size in int16x8 (TRANSPOSE_CONV 3x4 stride (1, 2)
  64 -> 32 channels, CONV_2D 3x3 and 1x1 of 32 channels; 0.45 M MACs), for the bench.
Weights are seeded random; each layer's output scale is set from the spread of its sum for inputs spread over
their range (three standard deviations at the type's limit), so values neither vanish nor saturate wholesale.
Uses tests/compiler/tflite_builder.py (no TensorFlow):  .venv/bin/python tests/models/make_decoder_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ACT, ModelBuilder  # noqa: E402

LIMIT = {"int8": 127, "int16": 32767}


class Chain:
    """Builds a chain of layers, each reading the previous output."""

    def __init__(self, dtype, in_shape, seed):
        self.dtype, self.rng, self.b = dtype, np.random.default_rng(seed), ModelBuilder(f"decoder_{dtype}")
        self.scale = 1.0 / 256 if dtype == "float32" else (0.02 if dtype == "int8" else 1e-3)
        self.zp = -5 if dtype == "int8" else 0
        q = () if dtype == "float32" else (self.scale, self.zp)
        self.x = self.b.input("x", in_shape, dtype, *q)
        self.shape = list(in_shape)
        self.n = 0

    def _out_q(self, taps):
        """(scale, zero point) of a layer output: 3 std of the sum at the type's limit (inputs ~ 1/2 range)."""
        std = np.sqrt(taps) * (LIMIT[self.dtype] / 2) * (127 / np.sqrt(3))
        return float(self.scale * self._ws * 3 * std / LIMIT[self.dtype]), 0

    def layer(self, kind, fshape, out_shape, options, taps, act="NONE", bias_mag=None):
        self.n += 1
        name, oc = f"l{self.n}", fshape[3] if kind == "DEPTHWISE_CONV_2D" else fshape[0]
        b, rng, float_ = self.b, self.rng, self.dtype == "float32"
        options = dict(options, fusedActivationFunction=ACT[act])
        if float_:
            w = b.const(name + "_w", rng.uniform(-1, 1, fshape).astype(np.float32) / np.sqrt(taps), "float32")
            bias = b.const(name + "_b", rng.uniform(-0.2, 0.2, oc).astype(np.float32), "float32")
            y = b.tensor(name, out_shape, "float32")
        else:
            ws = rng.uniform(0.5, 1.0, oc) * 1e-2
            self._ws = float(ws.mean())
            w = b.const(
                name + "_w",
                rng.integers(-127, 128, fshape).astype(np.int8),
                "int8",
                ws,
                0,
                quantized_dimension=3 if kind == "DEPTHWISE_CONV_2D" else 0,
            )
            btype = "int64" if self.dtype == "int16" else "int32"
            mag = bias_mag or int(LIMIT[self.dtype] * 127 * np.sqrt(taps) / 4)
            bias = b.const(
                name + "_b",
                rng.integers(-mag, mag + 1, oc).astype(btype),
                btype,
                np.float32(self.scale) * ws.astype(np.float32),
                0,
            )
            oscale, ozp = self._out_q(taps)
            if bias_mag:
                oscale += float(bias_mag * self.scale * self._ws / LIMIT[self.dtype])
            y = b.tensor(name, out_shape, self.dtype, oscale, ozp)
            self.scale, self.zp = oscale, ozp
        ins = [self.x, w, bias]
        if kind == "TRANSPOSE_CONV":
            ins = [b.const(name + "_shape", np.array(out_shape, np.int32), "int32"), w, self.x, bias]
        b.op(kind, ins, y, options)
        self.x, self.shape = y, list(out_shape)
        return self

    def save(self, path):
        self.b.output(self.x)
        self.b.save(path)


def conv_opts(stride=1, padding=0):
    return {"padding": padding, "strideH": stride, "strideW": stride, "dilationHFactor": 1, "dilationWFactor": 1}


def tconv_opts(sh, sw, padding):
    return {"padding": padding, "strideH": sh, "strideW": sw}


def decoder(dtype, seed):
    c = Chain(dtype, [1, 4, 5, 8], seed)
    c.layer("CONV_2D", (8, 3, 3, 8), [1, 4, 5, 8], conv_opts(), 72, act="RELU")
    if dtype == "int16":
        c.layer("DEPTHWISE_CONV_2D", (1, 3, 3, 8), [1, 4, 5, 8], dict(conv_opts(), depthMultiplier=1), 9)
    c.layer("TRANSPOSE_CONV", (6, 3, 3, 8), [1, 8, 10, 6], tconv_opts(2, 2, 0), 18)
    if dtype == "int16":
        c.layer("CONV_2D", (6, 1, 1, 6), [1, 8, 10, 6], conv_opts(), 6, bias_mag=2**36)
    c.layer("TRANSPOSE_CONV", (4, 3, 4, 6), [1, 10, 22, 4], tconv_opts(1, 2, 1), 36)
    return c


def seanet_block(seed):
    c = Chain("int16", [1, 1, 10, 64], seed)
    c.layer("TRANSPOSE_CONV", (32, 3, 4, 64), [1, 3, 22, 32], tconv_opts(1, 2, 1), 192)
    c.layer("CONV_2D", (32, 3, 3, 32), [1, 1, 20, 32], conv_opts(padding=1), 288)
    c.layer("CONV_2D", (32, 1, 1, 32), [1, 1, 20, 32], conv_opts(), 32)
    return c


if __name__ == "__main__":
    for i, dtype in enumerate(("int8", "int16", "float32")):
        out = os.path.join(HERE, f"decoder_{'float' if dtype == 'float32' else dtype}.tflite")
        decoder(dtype, seed=100 + i).save(out)
        print("wrote", out)
    out = os.path.join(HERE, "seanet_block_int16.tflite")
    seanet_block(seed=200).save(out)
    print("wrote", out)
