"""SOFTMAX with int8 input and int16 output (scale 1/65536, zero point -32768), as the keyword models end, against
TFLite Micro: input scales from tiny to large and beta values around 1, rows of 2 to 40 classes."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402

from compiler.driver import compile_model  # noqa: E402
from compiler.errors import UnsupportedError  # noqa: E402

CASES = [
    # (shape, input scale, input zero point, beta)
    ([1, 2], 0.07, 2, 1.0),
    ([3, 10], 0.5, -128, 1.0),
    ([2, 40], 0.01, 127, 0.5),
    ([4, 7], 2.0, 0, 2.0),
    ([1, 5], 0.001, -3, 1.0),
]


def softmax_model(shape, scale, zp, beta, out_q=(1.0 / 65536, -32768)):
    b = ModelBuilder()
    x = b.input("x", shape, "int8", scale, zp)
    b.output(b.op("SOFTMAX", [x], out=b.tensor("y", shape, "int16", *out_q), options={"beta": beta}))
    return b


@needs_tflm
@pytest.mark.parametrize("shape,scale,zp,beta", CASES)
def test_softmax_int8_to_int16_bit_exact(tmp_path, shape, scale, zp, beta):
    check_against_tflm(tmp_path, softmax_model(shape, scale, zp, beta))


def test_softmax_int16_output_needs_tflite_quantization(tmp_path):
    path = softmax_model([1, 4], 0.1, 0, 1.0, out_q=(1.0 / 32768, 0)).save(tmp_path / "m.tflite")
    with pytest.raises(UnsupportedError, match="1/65536"):
        compile_model(path, "m")
