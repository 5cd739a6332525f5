"""MAXIMUM and MINIMUM against the TFLite Micro interpreter in float32, int8 and int16 (bit-exact; TFLite Micro
compares stored values, so inputs with different quantization are compared raw), with 4-D broadcasting."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

pytestmark = needs_tflm

SHAPES = [([2, 3, 4, 5], [2, 3, 4, 5]), ([2, 3, 4, 5], [5]), ([1, 3, 1, 5], [2, 1, 4, 1]), ([7], [1])]
QUANT = {
    "float32": ((None, None), (None, None)),
    "int8": ((0.05, -128), (0.02, 127)),
    "int16": ((0.001, 0), (0.003, 0)),
}


@pytest.mark.parametrize("kind", ["MAXIMUM", "MINIMUM"])
@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
@pytest.mark.parametrize("sa,sb", SHAPES)
def test_minmax(tmp_path, kind, dtype, sa, sb):
    qa, qb = QUANT[dtype]
    out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    b = ModelBuilder()
    x = b.input("a", sa, dtype, *qa)
    c = (
        b.const(
            "b",
            np.resize(
                np.array([-3, 0, 5, 127, -128], np.int8 if dtype == "int8" else np.int16).astype(
                    np.float32 if dtype == "float32" else dtype
                ),
                sb,
            ),
            dtype,
            *qb,
        )
        if len(sb) == 1 and sb[0] == 1
        else b.input("b", sb, dtype, *qb)
    )
    b.output(b.op(kind, [x, c], out=b.tensor("y", out_shape, dtype, *qa)))
    check_against_tflm(tmp_path, b)
