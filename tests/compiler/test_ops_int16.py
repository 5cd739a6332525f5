"""int16x8 quantization (int16 activations, symmetric, zero point 0): per-op bit-exactness against the TFLite Micro
interpreter, with the harness of test_ops_tflite.py (seeded inputs over the whole int16 range plus the extremes),
and the clear refusals of int16 variants that are not supported.  The int16 convolutions are tested beside their
int8 forms."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, check_against_tflm, needs_tflm  # noqa: E402

from compiler.errors import UnsupportedError  # noqa: E402

pytestmark = needs_tflm

I16_MIN, I16_MAX = -32768, 32767


def extremes_case(graph):
    """One case of each input's extreme values (-32768, 32767, -1, 0, 1 tiled), where rounding and saturation
    corner cases live."""
    case = []
    for t in graph.inputs:
        info = np.iinfo(t.dtype) if t.dtype != "float32" else None
        values = [info.min, info.max, -1, 0, 1, info.min + 1] if info else [-1.0, 1.0, 0.0, -0.5, 0.5]
        case.append(np.resize(np.array(values, t.dtype), t.num_elements).reshape(t.shape))
    return [case]


def check(tmp_path, b, seed=0, **kw):
    path = b.save(tmp_path / "probe.tflite")
    from compiler.driver import load_model
    return check_against_tflm(tmp_path, b, seed=seed, extra_cases=extremes_case(load_model(path)), **kw)


# --- QUANTIZE / DEQUANTIZE / RESHAPE ---------------------------------------------------------------------------


@pytest.mark.parametrize("in_dtype,qin,out_dtype,qout", [
    ("float32", None, "int16", (1 / 32768, 0)),
    ("float32", None, "int16", (3e-5, 0)),
    ("int16", (0.0005, 0), "int8", (0.01, -3)),
    ("int16", (2e-6, 0), "int8", (0.3, 127)),
    ("int8", (0.05, 7), "int16", (0.0004, 0)),
    ("int8", (0.5, -128), "int16", (1e-6, 0)),
    ("int16", (0.0005, 0), "int16", (0.0007, 0)),
    ("int16", (0.0009, 0), "int16", (1e-7, 0)),
    ("int16", (0.0009, 0), "int16", (30.0, 0)),
    ("int16", (0.00049431244, 0), "int32", (1.4901161e-07, 0)),
    ("int32", (1.4901161e-07, 0), "int16", (0.00092197146, 0)),
    ("int8", (0.05, 3), "int32", (0.0001, 0)),
    ("int32", (1e-5, 0), "int8", (0.2, -5)),
])
def test_quantize_int16(tmp_path, in_dtype, qin, out_dtype, qout):
    b = ModelBuilder()
    x = b.input("x", [2, 3, 37], in_dtype, *(qin or (None, None)))
    y = b.op("QUANTIZE", [x], out=b.tensor("y", [2, 3, 37], out_dtype, *qout))
    b.output(y)
    check(tmp_path, b, float_range=(-1.2, 1.2))


@pytest.mark.parametrize("scale", [1 / 32768, 0.0123, 7.5])
def test_dequantize_int16(tmp_path, scale):
    b = ModelBuilder()
    x = b.input("x", [4, 29], "int16", scale, 0)
    y = b.op("DEQUANTIZE", [x], out=b.tensor("y", [4, 29], "float32"))
    b.output(y)
    check(tmp_path, b)


def test_reshape_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 8], "int16", 0.001, 0)
    shape = b.const("shape", np.array([3, 16], np.int32), "int32")
    r = b.op("RESHAPE", [x, shape], out=b.tensor("r", [3, 16], "int16", 0.001, 0),
             options={"newShape": [3, 16]})
    y = b.op("QUANTIZE", [r], out=b.tensor("y", [3, 16], "int8", 0.2, 1))
    b.output(y)
    check(tmp_path, b)


# --- refusals ------------------------------------------------------------------------------------------------


def test_reject_asymmetric_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [8], "int16", 0.001, 0)
    shape = b.const("shape", np.array([2, 4], np.int32), "int32")
    r = b.op("RESHAPE", [x, shape], out=b.tensor("r", [2, 4], "int16", 0.001, 0),
             options={"newShape": [2, 4]})
    y = b.op("MUL", [r, r], out=b.tensor("y", [2, 4], "int16", 0.002, 5))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "int16" in str(err) and "'y'" in str(err)


def test_reject_quantize_float_to_int32(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    y = b.op("QUANTIZE", [x], out=b.tensor("y", [4], "int32", 0.001, 0))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "QUANTIZE" in str(err) and "float32 -> int16" in str(err)


# --- data movement: PAD, STRIDED_SLICE, CONCATENATION, TRANSPOSE ---------------------------------------------


@pytest.mark.parametrize("kind,pads,value", [
    ("PAD", [[0, 0], [1, 2], [3, 0], [0, 0]], None),
    ("PAD", [[0, 0], [0, 0], [2, 5], [0, 1]], None),
    ("PADV2", [[1, 0], [0, 1], [0, 0], [2, 2]], I16_MIN),
    ("PADV2", [[0, 0], [2, 2], [1, 1], [0, 0]], 1234),
])
def test_pad_int16(tmp_path, kind, pads, value):
    shape = [1, 3, 5, 3]
    out_shape = [d + a + z for d, (a, z) in zip(shape, pads)]
    b = ModelBuilder()
    x = b.input("x", shape, "int16", 0.0009, 0)
    ins = [x, b.const("pads", np.array(pads, np.int32), "int32")]
    if value is not None:
        ins.append(b.const("value", np.array([value], np.int16), "int16", 0.0009, 0))
    y = b.op(kind, ins, out=b.tensor("y", out_shape, "int16", 0.0009, 0))
    b.output(y)
    check(tmp_path, b)


def test_strided_slice_concatenation_transpose_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 10, 4], "int16", 0.0005, 0)
    ss = b.op("STRIDED_SLICE", [x, b.const("begin", np.array([0, 1, -8, 0], np.int32), "int32"),
                                b.const("end", np.array([1, 6, 10, 3], np.int32), "int32"),
                                b.const("strides", np.array([1, 2, 3, 1], np.int32), "int32")],
              out=b.tensor("s", [1, 3, 3, 3], "int16", 0.0005, 0), options=_slice_options())
    c = b.op("CONCATENATION", [ss, ss], out=b.tensor("c", [1, 3, 3, 6], "int16", 0.0005, 0),
             options={"axis": -1})
    t = b.op("TRANSPOSE", [c, b.const("perm", np.array([0, 3, 1, 2], np.int32), "int32")],
             out=b.tensor("t", [1, 6, 3, 3], "int16", 0.0005, 0))
    b.output(t)
    check(tmp_path, b)


def _slice_options():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb
    return fb.StridedSliceOptionsT()


def test_reject_int16_concat_with_different_scales(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [2, 3], "int16", 0.001, 0)
    c = b.input("c", [2, 3], "int16", 0.002, 0)
    y = b.op("CONCATENATION", [a, c], out=b.tensor("y", [4, 3], "int16", 0.001, 0), options={"axis": 0})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "'c'" in str(err) and "int16" in str(err)
