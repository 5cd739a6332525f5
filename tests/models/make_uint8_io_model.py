"""Generates uint8_io_int8.tflite, committed next to this script: an int8 network with a uint8 image input (through
a uint8 -> int8 QUANTIZE, as vision models take camera data) and a uint8 output (int8 -> uint8 QUANTIZE, as
streaming wake-word and VAD models publish theirs) plus its float copy through a uint8 DEQUANTIZE; checked bit-exact
on the host and on a Cortex-M4 by BUILD.bazel's generated_exact_test (model u8io).  The network is the one
tests/compiler/test_quantize_uint8.py checks op by op.  Regenerate with
    .venv/bin/python tests/models/make_uint8_io_model.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from test_quantize_uint8 import _uint8_network  # noqa: E402

if __name__ == "__main__":
    print(_uint8_network().save(os.path.join(HERE, "uint8_io_int8.tflite")))
