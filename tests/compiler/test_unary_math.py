"""ABS, NEG, SQRT, RSQRT, EXP, LOG, SQUARE, SIN, COS, FLOOR, CEIL, ROUND against the TFLite Micro interpreter: float32
(within the harness's tolerance; inputs drawn where each function is defined, halves included for ROUND), and ABS in
int8 / int16 bit-exact over every input value with equal and different scales and zero points at the limits."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, check_against_tflm, needs_tflm  # noqa: E402

from compiler.errors import UnsupportedError  # noqa: E402

pytestmark = needs_tflm

# (op, input range the function is defined on)
FLOAT_OPS = [
    ("ABS", (-5, 5)),
    ("NEG", (-5, 5)),
    ("SQRT", (0, 100)),
    ("RSQRT", (0.01, 100)),
    ("EXP", (-20, 20)),
    ("LOG", (1e-3, 1e3)),
    ("SQUARE", (-100, 100)),
    ("SIN", (-10, 10)),
    ("COS", (-10, 10)),
    ("FLOOR", (-10, 10)),
    ("CEIL", (-10, 10)),
    ("ROUND", (-10, 10)),
]


def unary(kind, shape, dtype, qin=(None, None), qout=(None, None)):
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *qin)
    b.output(b.op(kind, [x], out=b.tensor("y", shape, dtype, *qout)))
    return b


@pytest.mark.parametrize("kind,rng", FLOAT_OPS, ids=[k for k, _ in FLOAT_OPS])
def test_float(tmp_path, kind, rng):
    b = unary(kind, [2, 3, 5, 7], "float32")
    halves = np.resize(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, 3.0], np.float32), (2, 3, 5, 7))
    extra = [[np.abs(halves) + 0.5]] if rng[0] > 0 else [[halves]]
    check_against_tflm(tmp_path, b, float_range=rng, extra_cases=extra)


ABS_Q = [
    ("int8", (0.05, 0), (0.05, 0)),  # equal scales: no rescale
    ("int8", (0.05, -128), (0.05, -128)),
    ("int8", (0.02, 127), (0.1, -128)),  # zero points at the limits, rescaled down
    ("int8", (0.3, -7), (0.01, 5)),  # rescaled up: saturates
    ("int8", (1e-6, 3), (0.5, -100)),  # near-dead rescale
    ("int16", (0.001, 0), (0.001, 0)),
    ("int16", (0.001, 0), (0.0003, 0)),
    ("int16", (2e-5, 0), (0.7, 0)),
]


@pytest.mark.parametrize("dtype,qin,qout", ABS_Q)
def test_abs_quantized_every_value(tmp_path, dtype, qin, qout):
    n = 256 if dtype == "int8" else 65536
    b = unary("ABS", [n], dtype, qin, qout)
    info = np.iinfo(dtype)
    every = np.arange(info.min, info.max + 1, dtype=dtype)
    check_against_tflm(tmp_path, b, cases=[[every]])


@pytest.mark.parametrize("kind", ["SQRT", "EXP", "SIN"])
def test_quantized_forms_refused(tmp_path, kind):
    b = unary(kind, [4], "int8", (0.1, 0), (0.1, 0))
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and kind in str(err) and "float32" in str(err), err
