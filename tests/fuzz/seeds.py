"""Seed models for the frontend fuzzer, built with the tests' own model builder (so that every corpus entry derived
from them is the project's own file, never a copy of a third-party model).

Each seed is small (a few hundred bytes to a few KB) and uses different operators and option tables, so mutations
reach the parsing and checking code of every supported op.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compiler"))
from tflite_builder import ACT, ModelBuilder  # noqa: E402


def _q(b, name, shape, scale=0.05, zp=0):
    return b.tensor(name, shape, "int8", scale, zp)


def _conv_block():
    rng = np.random.default_rng(1)
    b = ModelBuilder("fuzz seed: conv + depthwise + pool")
    x = b.input("x", [1, 8, 8, 2], "int8", 0.05, 3)
    w = b.const(
        "w", rng.integers(-127, 128, (4, 3, 3, 2)).astype(np.int8), "int8", [0.01] * 4, 0, quantized_dimension=0
    )
    bias = b.const("bias", np.arange(4, dtype=np.int32), "int32", [0.0005] * 4, 0)
    h = b.op(
        "CONV_2D",
        [x, w, bias],
        out=_q(b, "conv", [1, 4, 4, 4]),
        options={"padding": 0, "strideW": 2, "strideH": 2, "fusedActivationFunction": ACT["RELU"]},
    )
    dw = b.const(
        "dw", rng.integers(-127, 128, (1, 3, 3, 4)).astype(np.int8), "int8", [0.02] * 4, 0, quantized_dimension=3
    )
    h = b.op(
        "DEPTHWISE_CONV_2D",
        [h, dw, None],
        out=_q(b, "dwconv", [1, 4, 4, 4]),
        options={"padding": 0, "strideW": 1, "strideH": 1, "depthMultiplier": 1},
    )
    h = b.op(
        "MAX_POOL_2D",
        [h],
        out=_q(b, "maxpool", [1, 2, 2, 4]),
        options={"padding": 1, "strideW": 2, "strideH": 2, "filterWidth": 2, "filterHeight": 2},
    )
    h = b.op(
        "AVERAGE_POOL_2D",
        [h],
        out=_q(b, "avgpool", [1, 1, 1, 4]),
        options={"padding": 1, "strideW": 1, "strideH": 1, "filterWidth": 2, "filterHeight": 2},
    )
    shape = b.const("shape", np.array([1, 4], np.int32), "int32")
    h = b.op("RESHAPE", [h, shape], out=_q(b, "flat", [1, 4]), options={"newShape": [1, 4]})
    b.output(b.op("SOFTMAX", [h], out=b.tensor("probs", [1, 4], "int8", 1 / 256, -128), options={"beta": 1.0}))
    return b.build()


def _elementwise():
    b = ModelBuilder("fuzz seed: elementwise int8")
    x = b.input("x", [1, 2, 3, 4], "int8", 0.1, -2)
    y = b.input("y", [1, 2, 3, 4], "int8", 0.07, 5)
    s = b.op("ADD", [x, y], out=_q(b, "sum", [1, 2, 3, 4], 0.12, 1))
    m = b.op("MUL", [s, x], out=_q(b, "prod", [1, 2, 3, 4], 0.3, 0))
    c = b.op("CONCATENATION", [m, m], out=_q(b, "cat", [1, 2, 3, 8], 0.3, 0), options={"axis": 3})
    pads = b.const("pads", np.array([[0, 0], [1, 1], [0, 0], [0, 0]], np.int32), "int32")
    p = b.op("PAD", [c, pads], out=_q(b, "pad", [1, 4, 3, 8], 0.3, 0))
    axes = b.const("axes", np.array([1, 2], np.int32), "int32")
    r = b.op("MEAN", [p, axes], out=_q(b, "mean", [1, 1, 1, 8], 0.3, 0), options={"keepDims": True})
    t = b.op("TANH", [r], out=b.tensor("tanh", [1, 1, 1, 8], "int8", 1 / 128, 0))
    b.output(b.op("LOGISTIC", [t], out=b.tensor("sig", [1, 1, 1, 8], "int8", 1 / 256, -128)))
    return b.build()


def _float_mlp():
    rng = np.random.default_rng(2)
    b = ModelBuilder("fuzz seed: float MLP")
    x = b.input("x", [1, 6], "float32")
    w = b.const("w", rng.standard_normal((5, 6)).astype(np.float32), "float32")
    bias = b.const("b", rng.standard_normal(5).astype(np.float32), "float32")
    h = b.op(
        "FULLY_CONNECTED",
        [x, w, bias],
        out=b.tensor("fc", [1, 5], "float32"),
        options={"fusedActivationFunction": ACT["RELU6"]},
    )
    h = b.op("HARD_SWISH", [h], out=b.tensor("hs", [1, 5], "float32"))
    q = b.op("QUANTIZE", [h], out=b.tensor("q", [1, 5], "int8", 0.05, 0))
    d = b.op("DEQUANTIZE", [q], out=b.tensor("dq", [1, 5], "float32"))
    b.output(b.op("SOFTMAX", [d], out=b.tensor("p", [1, 5], "float32"), options={"beta": 1.0}))
    return b.build()


def _opts(name, **fields):
    from tflite_builder import fb

    o = getattr(fb, name)()
    for k, v in fields.items():
        setattr(o, k, v)
    return o


def _math_logic():
    """float math, comparisons, selection, reductions and arg-max (the option tables of the newer operators)."""
    b = ModelBuilder("fuzz seed: math and logic")
    x = b.input("x", [2, 3, 4], "float32")
    y = b.input("y", [4], "float32")
    a = b.op("ABS", [x], out=b.tensor("abs", [2, 3, 4], "float32"))
    e = b.op(
        "EXP", [b.op("NEG", [a], out=b.tensor("neg", [2, 3, 4], "float32"))], out=b.tensor("exp", [2, 3, 4], "float32")
    )
    d = b.op("SQUARED_DIFFERENCE", [e, y], out=b.tensor("sqd", [2, 3, 4], "float32"))
    c = b.op("GREATER", [d, y], out=b.tensor("gt", [2, 3, 4], "bool"))
    s = b.op("SELECT_V2", [c, d, e], out=b.tensor("sel", [2, 3, 4], "float32"))
    axes = b.const("axes", np.array([1], np.int32), "int32")
    r = b.op("REDUCE_MAX", [s, axes], out=b.tensor("rmax", [2, 4], "float32"), options={"keepDims": False})
    am = b.op(
        "ARG_MAX",
        [r, b.const("axis", np.array([1], np.int32), "int32")],
        out=b.tensor("am", [2], "int32"),
        options=_opts("ArgMaxOptionsT", outputType=2),
    )
    b.output(am, b.op("LOG_SOFTMAX", [r], out=b.tensor("lsm", [2, 4], "float32"), options=_opts("LogSoftmaxOptionsT")))
    return b.build()


def _movement():
    """int8 data movement and resampling: slices, splits, packs, mirror pads, resizes, gathers, views."""
    b = ModelBuilder("fuzz seed: data movement")
    x = b.input("x", [1, 4, 6, 2], "int8", 0.05, 3)
    sl = b.op(
        "SLICE",
        [
            x,
            b.const("begin", np.array([0, 1, 0, 0], np.int32), "int32"),
            b.const("size", np.array([1, 2, -1, 2], np.int32), "int32"),
        ],
        out=_q(b, "slice", [1, 2, 6, 2], 0.05, 3),
    )
    halves = [_q(b, f"half{i}", [1, 2, 3, 2], 0.05, 3) for i in range(2)]
    b.op(
        "SPLIT",
        [b.const("split_axis", np.array([2], np.int32), "int32"), sl],
        halves,
        options=_opts("SplitOptionsT", numSplits=2),
    )
    pk = b.op("PACK", halves, out=_q(b, "pack", [2, 1, 2, 3, 2], 0.05, 3), options=_opts("PackOptionsT", valuesCount=2))
    mp = b.op(
        "MIRROR_PAD",
        [x, b.const("mpads", np.array([[0, 0], [1, 1], [2, 0], [0, 0]], np.int32), "int32")],
        out=_q(b, "mpad", [1, 6, 8, 2], 0.05, 3),
        options=_opts("MirrorPadOptionsT", mode=1),
    )
    rz = b.op(
        "RESIZE_NEAREST_NEIGHBOR",
        [mp, b.const("size", np.array([3, 4], np.int32), "int32")],
        out=_q(b, "resize", [1, 3, 4, 2], 0.05, 3),
        options=_opts("ResizeNearestNeighborOptionsT", halfPixelCenters=True),
    )
    bl = b.op(
        "RESIZE_BILINEAR",
        [rz, b.const("size2", np.array([5, 5], np.int32), "int32")],
        out=_q(b, "bilinear", [1, 5, 5, 2], 0.05, 3),
        options=_opts("ResizeBilinearOptionsT"),
    )
    g = b.op(
        "GATHER_ND",
        [bl, b.const("idx", np.array([[0, 4], [0, 1]], np.int32), "int32")],
        out=_q(b, "gnd", [2, 5, 2], 0.05, 3),
    )
    b.output(pk, b.op("ELU", [g], out=_q(b, "elu", [2, 5, 2], 0.04, 20)))
    return b.build()


def _updates_crops_cumsum():
    """DYNAMIC_UPDATE_SLICE (run-time and constant int64 starts), BATCH_TO_SPACE_ND with crops and int8 CUMSUM
    (exclusive, reverse): the shape operands and options of these operators."""
    b = ModelBuilder("fuzz seed: update slice, crops, cumsum")
    x = b.input("x", [8, 3, 4, 2], "int8", 0.05, 3)
    u = b.input("u", [2, 2, 3, 2], "int8", 0.05, 3)
    s = b.input("starts", [4], "int32")
    d = b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], out=_q(b, "dus", [8, 3, 4, 2], 0.05, 3))
    d = b.op(
        "DYNAMIC_UPDATE_SLICE",
        [d, u, b.const("cstarts", np.array([5, -1, 9, 0], np.int64), "int64")],
        out=_q(b, "dus2", [8, 3, 4, 2], 0.05, 3),
    )
    bs = b.op(
        "BATCH_TO_SPACE_ND",
        [
            d,
            b.const("block", np.array([2, 2], np.int32), "int32"),
            b.const("crops", np.array([[1, 2], [3, 1]], np.int32), "int32"),
        ],
        out=_q(b, "b2s", [2, 3, 4, 2], 0.05, 3),
    )
    cs = b.op(
        "CUMSUM",
        [bs, b.const("axis", np.array([-2], np.int32), "int32")],
        out=_q(b, "cumsum", [2, 3, 4, 2], 0.2, -5),
        options=_opts("CumsumOptionsT", exclusive=True, reverse=True),
    )
    b.output(cs)
    return b.build()


def _quantized_math():
    """int8 DIV (broadcast, fused RELU, its x86-shift and zero-divisor paths), RSQRT, LOG_SOFTMAX (fixed output
    quantization) and L2_NORMALIZATION: their option tables and the scale checks that refuse undefined shifts."""
    b = ModelBuilder("fuzz seed: int8 DIV / RSQRT / LOG_SOFTMAX / L2_NORMALIZATION")
    x = b.input("x", [2, 3, 8], "int8", 0.05, -3)
    d = b.input("d", [8], "int8", 0.1, 7)
    q = b.op("DIV", [x, d], out=_q(b, "quot", [2, 3, 8], 0.02, 4), options={"fusedActivationFunction": ACT["RELU"]})
    r = b.op("RSQRT", [q], out=_q(b, "rsqrt", [2, 3, 8], 0.03, -20))
    ls = b.op("LOG_SOFTMAX", [r], out=b.tensor("logp", [2, 3, 8], "int8", 16 / 256, 127))
    b.output(b.op("L2_NORMALIZATION", [ls], out=b.tensor("unit", [2, 3, 8], "int8", 1 / 128, 0)))
    return b.build()


def _stateful_control() -> dict:
    """Multi-subgraph seeds: resource variables with a CALL_ONCE init subgraph, a WHILE loop with an IF in its body,
    and DETECTION_POSTPROCESS (a CUSTOM operator with FlexBuffer options), from the models of their own tests."""
    from test_control_flow import while_model
    from test_detection_postprocess import detection_model
    from test_resource_variables import accumulator

    return {
        "variables": accumulator("int8", shape=(2, 3), init=7, init_by_op=True)().build(),
        "while_if": while_model(nested_if=True)().build(),
        "detection": detection_model(n=16, classes=3, max_det=4, regular=True)().build(),
    }


def builder_seeds() -> dict:
    """{name: bytes} of the generated seeds."""
    return {
        **_stateful_control(),
        "conv_block": _conv_block(),
        "elementwise": _elementwise(),
        "float_mlp": _float_mlp(),
        "math_logic": _math_logic(),
        "movement": _movement(),
        "updates_crops_cumsum": _updates_crops_cumsum(),
        "quantized_math": _quantized_math(),
    }
