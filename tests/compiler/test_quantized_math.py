"""int8 DIV, RSQRT, LOG_SOFTMAX and L2_NORMALIZATION against the TFLite Micro interpreter, bit-exact: DIV over every
(dividend, divisor) pair (divisors at their zero point, ties and the final shifts of 32..63 bits included), RSQRT over
every valid input, the row operators on random and degenerate rows; and the one-paragraph refusals for the
parameters TFLite Micro's arithmetic leaves undefined."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, check_against_tflm, needs_tflm  # noqa: E402

from compiler.errors import UnsupportedError  # noqa: E402
from compiler.ops.div import shift_range  # noqa: E402

pytestmark = needs_tflm

EVERY = np.arange(-128, 128, dtype=np.int8)


def div_model(sa, sb, qa, qb, qo, activation=None):
    b = ModelBuilder()
    x = b.input("a", sa, "int8", *qa)
    y = b.input("b", sb, "int8", *qb)
    out = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    opts = None if activation is None else {"fusedActivationFunction": ACT[activation]}
    b.output(b.op("DIV", [x, y], out=b.tensor("q", out, "int8", *qo), options=opts))
    return b


def unary(kind, shape, qin, qout):
    b = ModelBuilder()
    x = b.input("x", shape, "int8", *qin)
    b.output(b.op(kind, [x], out=b.tensor("y", shape, "int8", *qout)))
    return b


@pytest.mark.parametrize(
    "qa,qb,qo",
    [
        ((0.05, -3), (0.1, 7), (0.02, 4)),  # a ratio of 25 that float32 and double round differently: ties
        ((1.0, 0), (1.0, 0), (1.0, 0)),
        ((1e-6, 5), (20.0, -100), (3.0, 3)),  # final shifts up to 63
        ((0.5, -128), (1e-3, 127), (2e-4, -128)),  # final shifts down to 0
        ((0.013, 127), (0.4, -128), (0.9, -128)),
    ],
)
def test_div_every_pair(tmp_path, qa, qb, qo):
    check_against_tflm(
        tmp_path, div_model([256, 1], [1, 256], qa, qb, qo), cases=[[EVERY.reshape(256, 1), EVERY.reshape(1, 256)]]
    )


def test_div_broadcast_and_relu(tmp_path):
    b = div_model([2, 3, 1, 5], [1, 3, 4, 1], (0.04, 10), (0.02, -5), (0.05, -100), activation="RELU")
    check_against_tflm(tmp_path, b)


def test_div_shift_range_matches_definition():
    """shift_range is the extreme of headroom + reciprocal exponent - shift over every int8 input pair."""
    # Dividends 0 and -1 have 31 redundant sign bits, +-128 (and +-255) 23 or more; every zero point admits the
    # zero divisor (reciprocal exponent -1), and divisors reach 128 or more (exponent 7).
    assert shift_range(0, 0, 0) == (23 - 1, 31 + 7)
    assert shift_range(-128, 127, 0) == (23 - 1, 31 + 7)
    assert shift_range(0, -128, 5) == (23 - 1 - 5, 31 + 7 - 5)
    assert shift_range(64, 0, 0)[0] == 23 - 1  # dividends -192 .. 63
    assert shift_range(0, 64, -3) == (23 - 1 + 3, 31 + 7 + 3)


@pytest.mark.parametrize(
    "qa,qb,qo,ok",
    [
        ((0.5, -128), (1e-3, 127), (2e-4, -128), True),
        ((0.5, -128), (1e-3, 127), (1e-4, -128), False),  # a shift of -1 for some pair
        ((1e-6, 5), (20.0, -100), (3.0, 3), True),
        ((1e-6, 5), (40.0, -100), (3.0, 3), False),  # a shift of 64
    ],
)
def test_div_refuses_undefined_shifts(tmp_path, qa, qb, qo, ok):
    b = div_model([4], [4], qa, qb, qo)
    if ok:
        check_against_tflm(tmp_path, b)
        return
    err = _compile_error(tmp_path, b)
    msg = str(err)
    assert isinstance(err, UnsupportedError), msg
    assert "DIV" in msg and "'a'" in msg and "'b'" in msg and "'q'" in msg and "0..63" in msg, msg


@pytest.mark.parametrize(
    "qi,qo",
    [((0.1, -128), (0.1, 0)), ((1e-5, -128), (8.0, 127)), ((6.0, -128), (0.004, -128)), ((0.3, 0), (0.5, 0))],
)
def test_rsqrt_every_valid_input(tmp_path, qi, qo):
    valid = np.arange(qi[1], 128, dtype=np.int32).astype(np.int8)
    check_against_tflm(tmp_path, unary("RSQRT", [valid.size], qi, qo), cases=[[valid]])


@pytest.mark.parametrize(
    "qi,qo",
    [
        ((100.0, -128), (500.0, 0)),
        # float32 sqrt(s_in) * s_out rounds to exactly 2^12, the exact factor is just below 2^-12: the interpreter
        # saturates every output there (its 32-bit shift), so this is refused too.
        ((40.78754744104404, -119), (641.3515549232669, 0)),
    ],
)
def test_rsqrt_refuses_tiny_rescale(tmp_path, qi, qo):
    err = _compile_error(tmp_path, unary("RSQRT", [4], qi, qo))
    assert isinstance(err, UnsupportedError) and "RSQRT" in str(err) and "'x'" in str(err), err


def test_rsqrt_at_the_boundary(tmp_path):
    # A factor of exactly 2^-12 in float32 and in double (s_in = 4^k makes the square root exact): accepted and exact.
    qi, qo = (16.0, -128), (1024.0, 0)
    valid = np.arange(qi[1], 128, dtype=np.int32).astype(np.int8)
    check_against_tflm(tmp_path, unary("RSQRT", [valid.size], qi, qo), cases=[[valid]])


def _rows(depth):
    """Degenerate rows first (all equal, one at the top, the extremes), then random ones."""
    rng = np.random.default_rng(depth)
    rows = [np.full(depth, -128), np.full(depth, 127), np.full(depth, 3), np.r_[127, np.full(depth - 1, -128)]]
    rows += [rng.integers(-128, 128, depth) for _ in range(4)]
    return np.array(rows, dtype=np.int8)


@pytest.mark.parametrize("qi", [(0.1, 0), (1e-6, -128), (15.0, 127), (0.004, 60)])
@pytest.mark.parametrize("kind", ["LOG_SOFTMAX", "L2_NORMALIZATION"])
def test_row_ops(tmp_path, kind, qi):
    qo = (16 / 256, 127) if kind == "LOG_SOFTMAX" else (1 / 128, 0)
    rows = _rows(37)
    check_against_tflm(tmp_path, unary(kind, list(rows.shape), qi, qo), cases=[[rows], [rows[::-1].copy()]])


def test_log_softmax_refuses_other_output_quantization(tmp_path):
    err = _compile_error(tmp_path, unary("LOG_SOFTMAX", [2, 8], (0.1, 0), (0.1, 127)))
    assert isinstance(err, UnsupportedError) and "16/256" in str(err) and "'y'" in str(err), err


def test_log_softmax_refuses_long_rows(tmp_path):
    err = _compile_error(tmp_path, unary("LOG_SOFTMAX", [1, 5000], (0.1, 0), (16 / 256, 127)))
    assert isinstance(err, UnsupportedError) and "4096" in str(err), err


def test_log_softmax_refuses_degenerate_input_scale(tmp_path):
    err = _compile_error(tmp_path, unary("LOG_SOFTMAX", [2, 8], (1e-9, 0), (16 / 256, 127)))
    assert isinstance(err, UnsupportedError) and "LOG_SOFTMAX" in str(err) and "'x'" in str(err), err


def test_l2_normalization_refuses_long_rows(tmp_path):
    err = _compile_error(tmp_path, unary("L2_NORMALIZATION", [1, 40000], (0.1, 0), (1 / 128, 0)))
    assert isinstance(err, UnsupportedError) and "L2_NORMALIZATION" in str(err), err
