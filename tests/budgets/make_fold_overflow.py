"""Writes fold_overflow.tflite (committed), the strict_kernels fixture of tests/budgets: one 3x3 CONV_2D whose input
zero point (-128) folded into its bias (near the int32 maximum) overflows int32, so on DSP cores it keeps the
portable kernel because of its quantization parameters.  Run: .venv/bin/python tests/budgets/make_fold_overflow.py"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))
from tflite_builder import ModelBuilder  # noqa: E402


def build(path: str) -> str:
    b = ModelBuilder("strict_kernels fixture: zero-point fold overflows int32")
    x = b.input("x", [1, 6, 6, 4], "int8", 0.05, -128)
    w = b.const("w", np.full((4, 3, 3, 4), 127, np.int8), "int8", np.full(4, 0.004), 0, quantized_dimension=0)
    bias = b.const("b", np.full(4, (1 << 31) - 1000, np.int32), "int32", np.full(4, 0.0002, np.float32), 0,
                   quantized_dimension=0)
    y = b.tensor("y", [1, 4, 4, 4], "int8", 0.2, 0)
    b.op("CONV_2D", [x, w, bias], y, {"padding": 1, "strideH": 1, "strideW": 1})
    b.output(y)
    return b.save(path)


if __name__ == "__main__":
    print(build(os.path.join(HERE, "fold_overflow.tflite")))
