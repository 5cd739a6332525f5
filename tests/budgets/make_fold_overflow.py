"""Writes fold_overflow.tflite (committed), the strict_kernels fixture of tests/budgets: one 3x3 CONV_2D whose input
zero point folded into its bias overflows int32 (tests/compiler/test_strict_kernels.py builds the same model).
Run: .venv/bin/python tests/budgets/make_fold_overflow.py"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))
from test_strict_kernels import fold_overflow_model  # noqa: E402

if __name__ == "__main__":
    print(fold_overflow_model(os.path.join(HERE, "fold_overflow.tflite")))
