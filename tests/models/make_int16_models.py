"""Generates int16_ops.tflite, committed next to this script: a small int16x8 (16x8-quantized) model with every
element-wise and data-movement int16 operator, for the on-target bit-exact test (BUILD.bazel: model int16_ops),
and int16_sigmoid_tanh.tflite: int16 LOGISTIC and TANH at the gate scale 2^-12 (multiplier 3, no shift) and at a
general input scale, for the DSP cores' table interpolation (BUILD.bazel: model int16_sigmoid_tanh).

No TensorFlow needed: tests/compiler/tflite_builder.py writes the flatbuffer.  The quantization parameters are
symmetric int16 scales that keep every intermediate in range; the two inputs cover an ADD / SUB with broadcasting,
QUANTIZE
to int8 and back to int16, and a float32 output through DEQUANTIZE.  Regenerate with
    .venv/bin/python tests/models/make_int16_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ACT, ModelBuilder  # noqa: E402


def _leaky(alpha: float):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    opts = fb.LeakyReluOptionsT()
    opts.alpha = alpha
    return opts


def _slice():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    return fb.StridedSliceOptionsT()


def int16_ops() -> ModelBuilder:
    b = ModelBuilder("int16 element-wise and data-movement operators (aot_rules tests/models/make_int16_models.py)")
    x = b.input("audio", [1, 2, 40, 8], "int16", 1 / 32768, 0)
    bias = b.input("bias", [8], "int16", 2e-5, 0)
    pad = b.op(
        "PAD",
        [x, b.const("pads", np.array([[0, 0], [0, 0], [3, 0], [0, 0]], np.int32), "int32")],
        out=b.tensor("padded", [1, 2, 43, 8], "int16", 1 / 32768, 0),
    )
    sl = b.op(
        "STRIDED_SLICE",
        [
            pad,
            b.const("begin", np.array([0, 0, 0, 0], np.int32), "int32"),
            b.const("end", np.array([1, 2, 40, 8], np.int32), "int32"),
            b.const("strides", np.array([1, 1, 1, 1], np.int32), "int32"),
        ],
        out=b.tensor("sliced", [1, 2, 40, 8], "int16", 1 / 32768, 0),
        options=_slice(),
    )
    add = b.op("ADD", [sl, x], out=b.tensor("sum", [1, 2, 40, 8], "int16", 1 / 16384, 0))
    sub = b.op(
        "SUB",
        [add, bias],
        out=b.tensor("diff", [1, 2, 40, 8], "int16", 1 / 16000, 0),
        options={"fusedActivationFunction": ACT["NONE"]},
    )
    lr = b.op("LEAKY_RELU", [sub], out=b.tensor("leaky", [1, 2, 40, 8], "int16", 1 / 16000, 0), options=_leaky(0.3))
    mul = b.op("MUL", [lr, sl], out=b.tensor("prod", [1, 2, 40, 8], "int16", 1 / 20000, 0))
    cat = b.op(
        "CONCATENATION", [mul, mul], out=b.tensor("cat", [1, 2, 40, 16], "int16", 1 / 20000, 0), options={"axis": 3}
    )
    pool = b.op(
        "MAX_POOL_2D",
        [cat],
        out=b.tensor("pool", [1, 1, 20, 16], "int16", 1 / 20000, 0),
        options={"padding": 1, "filterHeight": 2, "filterWidth": 2, "strideH": 2, "strideW": 2},
    )
    q8 = b.op("QUANTIZE", [pool], out=b.tensor("q8", [1, 1, 20, 16], "int8", 1 / 100, -3))
    q16 = b.op("QUANTIZE", [q8], out=b.tensor("q16", [1, 1, 20, 16], "int16", 1 / 4096, 0))
    soft = b.op("SOFTMAX", [q16], out=b.tensor("soft", [1, 1, 20, 16], "int16", 1 / 32768, 0), options={"beta": 1.0})
    mean = b.op(
        "MEAN",
        [soft, b.const("axes", np.array([2], np.int32), "int32")],
        out=b.tensor("mean", [1, 1, 16], "int16", 1 / 32768, 0),
        options={"keepDims": False},
    )
    y = b.op("DEQUANTIZE", [mean], out=b.tensor("probs", [1, 1, 16], "float32"))
    b.output(y, q8)
    return b


def int16_sigmoid_tanh() -> ModelBuilder:
    b = ModelBuilder("int16 LOGISTIC and TANH (aot_rules tests/models/make_int16_models.py)")
    outs = []
    for name, scale in (("gate", 2.0**-12), ("general", 0.00123)):
        x = b.input(name, [1, 2048], "int16", scale, 0)
        for kind in ("LOGISTIC", "TANH"):
            outs.append(b.op(kind, [x], out=b.tensor(f"{name}_{kind.lower()}", [1, 2048], "int16", 1 / 32768, 0)))
    b.output(*outs)
    return b


if __name__ == "__main__":
    print(int16_ops().save(os.path.join(HERE, "int16_ops.tflite")))
    print(int16_sigmoid_tanh().save(os.path.join(HERE, "int16_sigmoid_tanh.tflite")))
