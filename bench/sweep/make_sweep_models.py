"""Generates the cost model's calibration sweep: one-layer models, one per kernel family and shape class.

The cost model (compiler/report/cost_model.py) prices a layer by its kernel and its shape class (dot length K of
one output and output channels C, in bands, for layers that multiply; what it reads per element written for the
others). The bench networks alone measure many classes once, in one model each, so a model left out of the fit
often had no other model to price its layers. This sweep measures every kernel family over the bands the networks
use: convolutions (1x1, 3x3, strided, a tall kernel over one channel), depthwise convolutions (the 3x3 fast paths,
5x5, strided), fully connected layers from 1 to 4000 inputs and 1 to 640 outputs, pooling and MEAN, element-wise
and per-channel binary ops, the table-lookup unary ops, SOFTMAX, ARG_MAX, resizing, transposed convolutions, and
the int16x8 and float32 layers of the bench's int16 and float networks.

One layer per model: a model's whole count is its layer's (plus the call of its run function), so the counts are
per layer on every core, the Cortex-M3 included, whose shape-specialized runner inlines a layer called once and
leaves the per-layer attribution nothing to match. All of them are linked into one image per core and measured in
one QEMU run (bench/BUILD.bazel: `//bench:sweep`; bench/sweep.py). Weights and quantization are seeded draws
(int8 layers through tests/models/calibrated_net.py, as the generated bench networks); what is measured is the
instruction count, which does not depend on the values the kernels multiply.

    .venv/bin/python bench/sweep/make_sweep_models.py    # (re)writes bench/sweep/*.tflite and sweep_models.bzl
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS_DIR = os.path.join(HERE, "..", "..", "tests", "models")
sys.path.insert(0, os.path.join(HERE, "..", ".."))  # the compiler package, for the recurrent model builders
sys.path.insert(0, MODELS_DIR)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "compiler"))

from calibrated_net import CalibratedNet, _act_quant  # noqa: E402
from make_decoder_models import Chain, conv_opts, tconv_opts  # noqa: E402
from tflite_builder import ModelBuilder, fb  # noqa: E402


def _seed(name: str) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(name)) % 100_003


class _Clamped(CalibratedNet):
    """Outputs quantized over the range of the sum before the ReLU (as where a residual ADD follows): the ReLU then
    clamps inside int8 (zero point above -128), which the DSP cores run on the clamping kernel (aot_conv2d_s8_dsp)
    rather than the saturating one."""

    def _finish(self, name, z, act, quant=None):
        return super()._finish(name, z, act, quant or _act_quant(z))


def conv(name, hw, ic, oc, k, stride=1, clamped=False):
    n = (_Clamped if clamped else CalibratedNet)(_seed(name), name)
    h, w = hw
    x = n.input("x", [1, h, w, ic], 0.05, -3)
    return n.output(n.conv("y", x, oc, k, stride=stride))


def depthwise(name, hw, c, k=3, stride=1):
    n = CalibratedNet(_seed(name), name)
    x = n.input("x", [1, hw[0], hw[1], c], 0.05, -3)
    return n.output(n.depthwise("y", x, k=k, stride=stride))


def fc(name, n_in, units):
    n = CalibratedNet(_seed(name), name)
    x = n.input("x", [1, n_in], 0.05, -3)
    return n.output(n.fc("y", x, units))


def avg_pool_global(name, hw, c):
    n = CalibratedNet(_seed(name), name)
    x = n.input("x", [1, hw[0], hw[1], c], 0.05, -3)
    return n.output(n.global_avg_pool("y", x))


def float_op(name, kind, shape, out_shape, options=None, extra=()):
    """One float32 op on an input of `shape` (extra: constant inputs after it)."""

    def build(b):
        x = b.input("x", shape, "float32")
        ins = [x] + [b.const(f"c{i}", v, "int32") for i, v in enumerate(extra)]
        return b.op(kind, ins, b.tensor("y", out_shape, "float32"), options)

    return _single(name, build)


def softmax(name, classes):
    n = CalibratedNet(_seed(name), name)
    x = n.input("x", [1, classes], 0.1, 12)
    return n.output(n.softmax("y", x))


def _single(name, build):
    """A model of one raw op: build(b) returns its output tensor."""
    b = ModelBuilder(name)
    b.output(build(b))
    return b.build()


def pool(name, kind, hw, c, k, stride):
    def build(b):
        x = b.input("x", [1, hw[0], hw[1], c], "int8", 0.05, -3)
        out = [1, (hw[0] - k) // stride + 1, (hw[1] - k) // stride + 1, c]
        y = b.tensor("y", out, "int8", 0.05, -3)
        opts = {"padding": 1, "strideH": stride, "strideW": stride, "filterHeight": k, "filterWidth": k}
        return b.op(kind, [x], y, opts)

    return _single(name, build)


def mean_hw(name, hw, c):
    def build(b):
        x = b.input("x", [1, hw[0], hw[1], c], "int8", 0.05, -3)
        y = b.tensor("y", [1, 1, 1, c], "int8", 0.04, 2)
        axes = b.const("axes", np.array([1, 2], np.int32), "int32")
        return b.op("MEAN", [x, axes], y, {"keepDims": True})

    return _single(name, build)


def binary(name, kind, shape, other_shape=None, act=0):
    rng = np.random.default_rng(_seed(name))

    def build(b):
        x = b.input("x", shape, "int8", 0.04, -7)
        if other_shape is None:
            y = b.input("z", shape, "int8", 0.03, 11)
        else:
            y = b.const("z", rng.integers(-128, 128, other_shape).astype(np.int8), "int8", 0.02, 5)
        out = b.tensor(
            "y",
            shape,
            "int8",
            0.2 if kind == "SQUARED_DIFFERENCE" else 0.06,
            -128 if kind == "SQUARED_DIFFERENCE" else 3,
        )
        opts = {"fusedActivationFunction": act} if kind in ("ADD", "SUB", "MUL") else None
        return b.op(kind, [x, y], out, opts)

    return _single(name, build)


def unary(name, kind, shape):
    fixed = {"TANH": (1.0 / 128, 0), "LOGISTIC": (1.0 / 256, -128)}

    def build(b):
        x = b.input("x", shape, "int8", 0.08, 5)
        y = b.tensor("y", shape, "int8", *fixed.get(kind, (0.03, -20)))
        opts = None
        if kind == "LEAKY_RELU":
            opts = fb.LeakyReluOptionsT()
            opts.alpha = 0.1
        return b.op(kind, [x], y, opts)

    return _single(name, build)


def arg_max(name, shape, kind="ARG_MAX"):
    def build(b):
        x = b.input("x", shape, "int8", 0.1, 12)
        y = b.tensor("y", shape[:-1], "int32")
        opts = fb.ArgMaxOptionsT() if kind == "ARG_MAX" else fb.ArgMinOptionsT()
        opts.outputType = fb.TensorType.INT32
        axis = b.const("axis", np.array([len(shape) - 1], np.int32), "int32")
        return b.op(kind, [x, axis], y, opts)

    return _single(name, build)


def resize(name, kind, hw, c, size):
    def build(b):
        x = b.input("x", [1, hw[0], hw[1], c], "int8", 0.05, -3)
        y = b.tensor("y", [1, size[0], size[1], c], "int8", 0.05, -3)
        size_t = b.const("size", np.array(size, np.int32), "int32")
        opts = fb.ResizeBilinearOptionsT() if kind == "RESIZE_BILINEAR" else fb.ResizeNearestNeighborOptionsT()
        opts.alignCorners, opts.halfPixelCenters = False, kind == "RESIZE_BILINEAR"
        return b.op(kind, [x, size_t], y, opts)

    return _single(name, build)


def tconv_s8(name, hw, ic, oc, k=3, stride=2):
    rng = np.random.default_rng(_seed(name))

    def build(b):
        x = b.input("x", [1, hw[0], hw[1], ic], "int8", 0.05, -3)
        ws = rng.uniform(0.5, 1.0, oc) * 1e-2
        w = b.const("w", rng.integers(-127, 128, (oc, k, k, ic)).astype(np.int8), "int8", ws, 0, 0)
        bias = b.const("b", rng.integers(-2000, 2000, oc).astype(np.int32), "int32", np.float32(0.05) * ws, 0)
        out = [1, hw[0] * stride, hw[1] * stride, oc]
        y = b.tensor("y", out, "int8", 0.1, 3)
        shape = b.const("shape", np.array(out, np.int32), "int32")
        return b.op("TRANSPOSE_CONV", [shape, w, x, bias], y, {"padding": 0, "strideH": stride, "strideW": stride})

    return _single(name, build)


def chain_layer(name, dtype, in_shape, kind, fshape, out_shape, options, taps):
    """One int16x8 or float32 layer (tests/models/make_decoder_models.py's Chain)."""
    c = Chain(dtype, in_shape, _seed(name))
    c.layer(kind, fshape, out_shape, options, taps)
    c.b.output(c.x)
    return c.b.build()


def lstm(name, **kw):
    """One int8 UNIDIRECTIONAL_SEQUENCE_LSTM (tests/compiler/test_lstm.py's builder)."""
    from test_lstm import lstm_model

    return lstm_model("int8", seed=_seed(name) % 1000, **kw)[0].build()


def svdf(name, **kw):
    """One int8 SVDF with an int8 state (tests/compiler/test_stateful.py's builder)."""
    from test_stateful import svdf_model

    return svdf_model("int8", "int8", seed=_seed(name) % 1000, **kw).build()


def float_add(name, shape):
    def build(b):
        x = b.input("x", shape, "float32")
        y = b.input("z", shape, "float32")
        return b.op("ADD", [x, y], b.tensor("y", shape, "float32"), {"fusedActivationFunction": 0})

    return _single(name, build)


def float_fc(name, n_in, units):
    rng = np.random.default_rng(_seed(name))

    def build(b):
        x = b.input("x", [1, n_in], "float32")
        w = b.const("w", rng.uniform(-1, 1, (units, n_in)).astype(np.float32), "float32")
        bias = b.const("b", rng.uniform(-0.2, 0.2, units).astype(np.float32), "float32")
        return b.op("FULLY_CONNECTED", [x, w, bias], b.tensor("y", [1, units], "float32"), {})

    return _single(name, build)


# name -> generator. Sizes keep each layer around 10^4-10^6 instructions on the slowest core: the whole sweep is one
# short QEMU run per core. The prefixes name the family (conv, dw, fc, pool, elt, lut, ...).
SWEEP = {
    # CONV_2D, 1x1 over the dot lengths 4 .. 256 (the 1x1 DSP specializations k8/k16/k24 and the generic path).
    "sw_conv1x1_k4_c8": lambda n: conv(n, (24, 24), 4, 8, 1),
    "sw_conv1x1_k8_c16": lambda n: conv(n, (24, 24), 8, 16, 1),
    "sw_conv1x1_k16_c32": lambda n: conv(n, (16, 16), 16, 32, 1),
    "sw_conv1x1_k16_c96": lambda n: conv(n, (12, 12), 16, 96, 1),
    "sw_conv1x1_k24_c144": lambda n: conv(n, (12, 12), 24, 144, 1),
    "sw_conv1x1_k32_c64": lambda n: conv(n, (12, 12), 32, 64, 1),
    "sw_conv1x1_k64_c64": lambda n: conv(n, (10, 5), 64, 64, 1),
    "sw_conv1x1_k96_c24": lambda n: conv(n, (12, 12), 96, 24, 1),
    "sw_conv1x1_k128_c128": lambda n: conv(n, (6, 6), 128, 128, 1),
    "sw_conv1x1_k256_c256": lambda n: conv(n, (3, 3), 256, 256, 1),
    "sw_conv1x1_k32_c512": lambda n: conv(n, (4, 4), 32, 512, 1),
    # CONV_2D 3x3 (K 27 .. 576), strided, and a tall kernel over one channel (KWS's and micro_speech's first layers).
    "sw_conv3x3_k27_c8_s2": lambda n: conv(n, (48, 48), 3, 8, 3, stride=2),
    "sw_conv3x3_k27_c16": lambda n: conv(n, (24, 24), 3, 16, 3),
    "sw_conv3x3_k144_c16": lambda n: conv(n, (12, 12), 16, 16, 3),
    "sw_conv3x3_k144_c32_s2": lambda n: conv(n, (16, 16), 16, 32, 3, stride=2),
    "sw_conv3x3_k288_c32": lambda n: conv(n, (8, 8), 32, 32, 3),
    "sw_conv3x3_k288_c64_s2": lambda n: conv(n, (8, 8), 32, 64, 3, stride=2),
    "sw_conv3x3_k576_c64": lambda n: conv(n, (4, 4), 64, 64, 3),
    "sw_conv10x4_k40_c64_s2": lambda n: conv(n, (40, 10), 1, 64, (10, 4), stride=2),
    "sw_conv10x8_k80_c8_s2": lambda n: conv(n, (40, 32), 1, 8, (10, 8), stride=2),
    # The same classes on larger images (a SAME layer's per-MAC cost falls with its size: less border).
    "sw_conv10x4_k40_c64_s2_big": lambda n: conv(n, (64, 10), 1, 64, (10, 4), stride=2),
    "sw_conv10x8_k80_c8_s2_big": lambda n: conv(n, (64, 48), 1, 8, (10, 8), stride=2),
    "sw_conv1x1_k64_c64_big": lambda n: conv(n, (32, 5), 64, 64, 1),
    "sw_dw3x3_c64_big": lambda n: depthwise(n, (32, 5), 64),
    # A ReLU that clamps inside int8 (the clamping DSP kernel).
    "sw_conv3x3_k144_c16_clamp": lambda n: conv(n, (16, 16), 16, 16, 3, clamped=True),
    "sw_conv1x1_k16_c32_s2_clamp": lambda n: conv(n, (24, 24), 16, 32, 1, stride=2, clamped=True),
    "sw_conv1x1_k32_c64_clamp": lambda n: conv(n, (8, 8), 32, 64, 1, clamped=True),
    "sw_conv1x1_k144_c24_clamp": lambda n: conv(n, (12, 12), 144, 24, 1, clamped=True),
    "sw_conv3x3_k288_c64_clamp": lambda n: conv(n, (6, 6), 32, 64, 3, clamped=True),
    # DEPTHWISE_CONV_2D: 3x3 over 8 .. 256 channels, strided, 5x5, and the Kx1 filters of audio models.
    "sw_dw3x3_c8": lambda n: depthwise(n, (24, 24), 8),
    "sw_dw3x3_c16": lambda n: depthwise(n, (16, 16), 16),
    "sw_dw3x3_c32": lambda n: depthwise(n, (12, 12), 32),
    "sw_dw3x3_c64": lambda n: depthwise(n, (12, 6), 64),
    "sw_dw3x3_c96": lambda n: depthwise(n, (8, 8), 96),
    "sw_dw3x3_c128": lambda n: depthwise(n, (6, 6), 128),
    "sw_dw3x3_c256": lambda n: depthwise(n, (3, 3), 256),
    # Narrow images (the Helium plane kernel's case) and a wide one.
    "sw_dw3x3_c64_w5": lambda n: depthwise(n, (10, 5), 64),
    "sw_dw3x3_c32_w4": lambda n: depthwise(n, (6, 4), 32),
    "sw_dw3x3_c8_w48": lambda n: depthwise(n, (8, 48), 8),
    "sw_dw3x3_c24_s2": lambda n: depthwise(n, (24, 24), 24, stride=2),
    "sw_dw3x3_c64_s2": lambda n: depthwise(n, (12, 12), 64, stride=2),
    "sw_dw5x5_c16": lambda n: depthwise(n, (12, 12), 16, k=5),
    "sw_dw3x1_c40": lambda n: depthwise(n, (20, 1), 40, k=(3, 1)),
    "sw_dw5x1_c128": lambda n: depthwise(n, (16, 1), 128, k=(5, 1)),
    "sw_dw10x1_c64": lambda n: depthwise(n, (20, 1), 64, k=(10, 1)),
    # FULLY_CONNECTED: dot lengths 1 .. 4000, outputs 1 .. 640.
    "sw_fc_k1_c16": lambda n: fc(n, 1, 16),
    "sw_fc_k16_c16": lambda n: fc(n, 16, 16),
    "sw_fc_k16_c1": lambda n: fc(n, 16, 1),
    "sw_fc_k8_c128": lambda n: fc(n, 8, 128),
    "sw_fc_k64_c12": lambda n: fc(n, 64, 12),
    "sw_fc_k128_c8": lambda n: fc(n, 128, 8),
    "sw_fc_k128_c128": lambda n: fc(n, 128, 128),
    "sw_fc_k128_c640": lambda n: fc(n, 128, 640),
    "sw_fc_k256_c32": lambda n: fc(n, 256, 32),
    "sw_fc_k640_c128": lambda n: fc(n, 640, 128),
    "sw_fc_k1280_c16": lambda n: fc(n, 1280, 16),
    "sw_fc_k4000_c4": lambda n: fc(n, 4000, 4),
    # Pooling and MEAN.
    "sw_avgpool_global_r125_c64": lambda n: avg_pool_global(n, (25, 5), 64),
    "sw_avgpool_global_r16_c128": lambda n: avg_pool_global(n, (4, 4), 128),
    "sw_avgpool2x2_c16": lambda n: pool(n, "AVERAGE_POOL_2D", (24, 24), 16, 2, 2),
    "sw_maxpool2x2_c16": lambda n: pool(n, "MAX_POOL_2D", (24, 24), 16, 2, 2),
    "sw_mean_r9_c256": lambda n: mean_hw(n, (3, 3), 256),
    # Element-wise binary ops, same shape and per channel.
    "sw_add": lambda n: binary(n, "ADD", [1, 24, 24, 32]),
    "sw_add_relu_c": lambda n: binary(n, "ADD", [1, 24, 24, 32], [1, 1, 1, 32], act=1),
    "sw_sub": lambda n: binary(n, "SUB", [1, 24, 24, 32]),
    "sw_mul": lambda n: binary(n, "MUL", [1, 24, 24, 32]),
    "sw_mul_c": lambda n: binary(n, "MUL", [1, 24, 24, 32], [1, 1, 1, 32]),
    "sw_maximum": lambda n: binary(n, "MAXIMUM", [1, 24, 24, 32]),
    "sw_sqdiff": lambda n: binary(n, "SQUARED_DIFFERENCE", [1, 24, 24, 32]),
    # Table-lookup unary ops (one table kernel per core) at two sizes.
    "sw_lut_logistic": lambda n: unary(n, "LOGISTIC", [1, 24, 24, 32]),
    "sw_lut_hard_swish": lambda n: unary(n, "HARD_SWISH", [1, 12, 12, 16]),
    # SOFTMAX, ARG_MAX, resizing.
    "sw_softmax_10": lambda n: softmax(n, 10),
    "sw_softmax_100": lambda n: softmax(n, 100),
    "sw_argmax_1000": lambda n: arg_max(n, [1, 1000]),
    "sw_argmin_1000": lambda n: arg_max(n, [1, 1000], kind="ARG_MIN"),
    "sw_argmax_c16": lambda n: arg_max(n, [1, 24, 24, 16]),
    "sw_resize_bilinear_x2": lambda n: resize(n, "RESIZE_BILINEAR", (24, 24), 16, (48, 48)),
    "sw_resize_nearest_x2": lambda n: resize(n, "RESIZE_NEAREST_NEIGHBOR", (24, 24), 16, (48, 48)),
    # TRANSPOSE_CONV int8.
    "sw_tconv3x3_c8_s2": lambda n: tconv_s8(n, (12, 12), 16, 8),
    "sw_tconv3x3_c16_s2": lambda n: tconv_s8(n, (8, 8), 32, 16),
    "sw_tconv4x4_c8_s2": lambda n: tconv_s8(n, (16, 16), 16, 8, k=4),
    # int16x8 convolutions (SMLAD kernels on the DSP cores).
    "sw_s16_conv3x3_c32": lambda n: chain_layer(
        n, "int16", [1, 5, 12, 32], "CONV_2D", (32, 3, 3, 32), [1, 3, 10, 32], conv_opts(padding=1), 288
    ),
    "sw_s16_conv1x1_c32": lambda n: chain_layer(
        n, "int16", [1, 4, 20, 32], "CONV_2D", (32, 1, 1, 32), [1, 4, 20, 32], conv_opts(), 32
    ),
    "sw_s16_tconv3x4_c32": lambda n: chain_layer(
        n, "int16", [1, 1, 10, 32], "TRANSPOSE_CONV", (16, 3, 4, 32), [1, 3, 22, 16], tconv_opts(1, 2, 1), 96
    ),
    "sw_s16_tconv3x4_c32_k110": lambda n: chain_layer(
        n, "int16", [1, 1, 6, 64], "TRANSPOSE_CONV", (32, 3, 4, 64), [1, 3, 14, 32], tconv_opts(1, 2, 1), 192
    ),
    # The recurrent kernels (stateful: the first inference after a reset).
    "sw_lstm_i16_s32": lambda n: lstm(n, batches=1, steps=8, input_size=16, state=32),
    "sw_lstm_i40_s16": lambda n: lstm(n, batches=1, steps=4, input_size=40, state=16),
    "sw_svdf_i40_f64": lambda n: svdf(n, batches=1, input_size=40, filters=64, rank=1, memory=8),
    # float32 layers.
    "sw_f32_conv3x3_k27_c64": lambda n: chain_layer(
        n, "float32", [1, 16, 16, 3], "CONV_2D", (64, 3, 3, 3), [1, 16, 16, 64], conv_opts(padding=0), 27
    ),
    "sw_f32_conv3x3_k432_c96": lambda n: chain_layer(
        n, "float32", [1, 5, 5, 48], "CONV_2D", (96, 3, 3, 48), [1, 3, 3, 96], conv_opts(padding=1), 432
    ),
    "sw_f32_conv3x3_c16": lambda n: chain_layer(
        n, "float32", [1, 8, 8, 16], "CONV_2D", (16, 3, 3, 16), [1, 8, 8, 16], conv_opts(padding=0), 144
    ),
    "sw_f32_conv3x3_c32": lambda n: chain_layer(
        n, "float32", [1, 8, 8, 16], "CONV_2D", (32, 3, 3, 16), [1, 8, 8, 32], conv_opts(padding=0), 144
    ),
    "sw_f32_conv3x3_c64": lambda n: chain_layer(
        n, "float32", [1, 6, 6, 32], "CONV_2D", (64, 3, 3, 32), [1, 4, 4, 64], conv_opts(padding=1), 288
    ),
    "sw_f32_conv1x1_c128": lambda n: chain_layer(
        n, "float32", [1, 4, 4, 64], "CONV_2D", (128, 1, 1, 64), [1, 4, 4, 128], conv_opts(), 64
    ),
    # Long dot products of wide float layers (over 100 KB of weights each: not on the Cortex-M55, bench/BUILD.bazel).
    "sw_f32big_conv3x3_k576_c128": lambda n: chain_layer(
        n, "float32", [1, 4, 4, 64], "CONV_2D", (128, 3, 3, 64), [1, 2, 2, 128], conv_opts(padding=1), 576
    ),
    "sw_f32big_conv3x3_k864_c192": lambda n: chain_layer(
        n, "float32", [1, 4, 4, 96], "CONV_2D", (192, 3, 3, 96), [1, 2, 2, 192], conv_opts(padding=1), 864
    ),
    "sw_f32big_conv3x3_k1152_c256": lambda n: chain_layer(
        n, "float32", [1, 4, 4, 128], "CONV_2D", (256, 3, 3, 128), [1, 2, 2, 256], conv_opts(padding=1), 1152
    ),
    "sw_f32big_conv1x1_k128_c256": lambda n: chain_layer(
        n, "float32", [1, 4, 4, 128], "CONV_2D", (256, 1, 1, 128), [1, 4, 4, 256], conv_opts(), 128
    ),
    "sw_f32_add": lambda n: float_add(n, [1, 16, 16, 16]),
    "sw_f32_avgpool_global": lambda n: float_op(
        n,
        "AVERAGE_POOL_2D",
        [1, 8, 8, 64],
        [1, 1, 1, 64],
        {"padding": 1, "strideH": 8, "strideW": 8, "filterHeight": 8, "filterWidth": 8},
    ),
    "sw_f32_softmax_10": lambda n: float_op(n, "SOFTMAX", [1, 10], [1, 10], {"beta": 1.0}),
    "sw_f32_fc_k1_c16": lambda n: float_fc(n, 1, 16),
    "sw_f32_fc_k16_c16": lambda n: float_fc(n, 16, 16),
    "sw_f32_fc_k64_c10": lambda n: float_fc(n, 64, 10),
    # The float DS-CNN's layer classes (kws_float_gen): a 10x4 stride-2 convolution over one channel, 1x1 64 to 64,
    # depthwise 3x3 over 64 (the vector depthwise kernel), and a 16 to 1 fully connected layer (hello_world_float).
    "sw_f32_conv10x4_k40_c64_s2": lambda n: chain_layer(
        n, "float32", [1, 20, 10, 1], "CONV_2D", (64, 10, 4, 1), [1, 10, 5, 64], conv_opts(stride=2), 40
    ),
    "sw_f32_conv1x1_k64_c64": lambda n: chain_layer(
        n, "float32", [1, 10, 5, 64], "CONV_2D", (64, 1, 1, 64), [1, 10, 5, 64], conv_opts(), 64
    ),
    "sw_f32_dw3x3_c64": lambda n: chain_layer(
        n,
        "float32",
        [1, 10, 5, 64],
        "DEPTHWISE_CONV_2D",
        (1, 3, 3, 64),
        [1, 10, 5, 64],
        dict(conv_opts(), depthMultiplier=1),
        9,
    ),
    "sw_f32_fc_k16_c1": lambda n: float_fc(n, 16, 1),
}


def main(out_dir=HERE):
    names = []
    for name, make in SWEEP.items():
        data = make(name)
        with open(os.path.join(out_dir, name + ".tflite"), "wb") as f:
            f.write(data)
        names.append(name)
    with open(os.path.join(out_dir, "sweep_models.bzl"), "w") as f:
        f.write(
            '"""The calibration sweep\'s models (bench/sweep/make_sweep_models.py writes this). Do not edit."""\n\n'
        )
        f.write("SWEEP_MODELS = [\n" + "".join(f'    "{n}",\n' for n in names) + "]\n")
    print(f"make_sweep_models: {len(names)} models in {out_dir}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
