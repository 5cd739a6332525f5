"""The one-paragraph refusals of DYNAMIC_UPDATE_SLICE, BATCH_TO_SPACE_ND (crops), SPACE_TO_BATCH_ND (paddings) and
CUMSUM: what TFLite Micro rejects too or what cannot be compiled statically, each naming the operator, the tensor
or field and what is supported. Their results are checked bit-exact by the operator conformance suite
(tests/conformance)."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder, fb  # noqa: E402

from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402


def _compile(tmp_path, b):
    path = str(tmp_path / "model.tflite")
    b.save(path)
    return compile_model(path, "m", "host")


def _dus(shape, ushape, starts_shape, starts_dtype="int32", oshape=None, const_starts=None):
    b = ModelBuilder()
    x = b.input("x", shape, "float32")
    u = b.input("u", ushape, "float32")
    if const_starts is not None:
        s = b.const("s", np.asarray(const_starts, np.dtype(starts_dtype)), starts_dtype)
    else:
        s = b.input("s", starts_shape, starts_dtype)
    b.output(b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], out=b.tensor("y", oshape or shape, "float32")))
    return b


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(shape=[4, 5], ushape=[5, 2], starts_shape=[2]), "no dimension larger"),
        (dict(shape=[4, 5], ushape=[2], starts_shape=[2]), "operand's rank"),
        (dict(shape=[4, 5], ushape=[2, 2], starts_shape=[3]), "vector of 2 entries"),
        (dict(shape=[4, 5], ushape=[2, 2], starts_shape=[2], oshape=[4, 4]), "must be equal"),
    ],
)
def test_dynamic_update_slice_refused(tmp_path, kw, match):
    with pytest.raises((CompileError, UnsupportedError), match=match) as e:
        _compile(tmp_path, _dus(**kw))
    assert "DYNAMIC_UPDATE_SLICE" in str(e.value) and "\n\n" not in str(e.value)


def test_dynamic_update_slice_runtime_int64_starts_refused(tmp_path):
    """No 64-bit integer enters the generated C: a run-time int64 start vector is refused (a constant one is
    clamped at compile time)."""
    with pytest.raises((CompileError, UnsupportedError), match="int64"):
        _compile(tmp_path, _dus([4, 5], [2, 2], [2], "int64"))
    _compile(tmp_path, _dus([4, 5], [2, 2], [2], "int64", const_starts=[2**40, -3]))


def _b2s(shape, block, crops, oshape):
    b = ModelBuilder()
    x = b.input("x", shape, "float32")
    bl = b.const("block", np.asarray(block, np.int32), "int32")
    cr = b.const("crops", np.asarray(crops, np.int32), "int32")
    b.output(b.op("BATCH_TO_SPACE_ND", [x, bl, cr], out=b.tensor("y", oshape, "float32")))
    return b


@pytest.mark.parametrize(
    "args, match",
    [
        (([4, 2, 3, 1], [2, 2], [[0, -1], [0, 0]], [1, 5, 6, 1]), "non-negative"),
        (([4, 2, 3, 1], [2, 2], [[0, 1], [0, 0]], [1, 4, 6, 1]), r"give \[1, 3, 6, 1\]"),
        (([4, 2, 3, 1], [2, 2], [[4, 0], [0, 0]], [1, 1, 6, 1]), "at least one row"),
        (([6, 2, 3, 1], [2, 2], [[0, 1], [0, 0]], [1, 3, 6, 1]), "not a multiple of the block size 4"),
        (([4, 2, 3, 1, 1], [2, 2], [[0, 1], [0, 0]], [1, 3, 6, 1, 1]), "3-D NHC and 4-D NHWC"),
        (([4, 2, 3], [2, 2], [[0, 1], [0, 0]], [1, 3, 6]), r"block shape \[2, 2\] must hold 1 positive"),
    ],
)
def test_batch_to_space_nd_refused(tmp_path, args, match):
    with pytest.raises((CompileError, UnsupportedError), match=match) as e:
        _compile(tmp_path, _b2s(*args))
    assert "BATCH_TO_SPACE_ND" in str(e.value)


def _cumsum(dtype, qin, qout):
    b = ModelBuilder()
    x = b.input("x", [3, 4], dtype, *qin)
    ax = b.const("axis", np.array([1], np.int32), "int32")
    opts = fb.CumsumOptionsT()
    b.output(b.op("CUMSUM", [x, ax], out=b.tensor("y", [3, 4], dtype, *qout), options=opts))
    return b


def test_cumsum_int16_refused(tmp_path):
    """TFLite Micro's CUMSUM takes float32 and int8 only."""
    with pytest.raises(UnsupportedError, match="supported for: float32, int8"):
        _compile(tmp_path, _cumsum("int16", (0.001, 0), (0.001, 0)))


def test_cumsum_int8_output_scale_too_small_refused(tmp_path):
    """input scale / output scale of 2^19 or more makes TFLite Micro's output multiplier 1 or more, which its
    Prepare rejects (a CHECK)."""
    with pytest.raises(UnsupportedError, match=r"CUMSUM.*'x'.*'y'.*below 2\^19"):
        _compile(tmp_path, _cumsum("int8", (1.0, 0), (1.0 / 2**19, 0)))
    _compile(tmp_path, _cumsum("int8", (1.0, 0), (1.0 / 2**18, 0)))


def _s2b(shape, block, pads, oshape, dtype="float32", q=(None, None)):
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *q)
    bl = b.const("block", np.asarray(block, np.int32), "int32")
    p = b.const("paddings", np.asarray(pads, np.int32), "int32")
    b.output(b.op("SPACE_TO_BATCH_ND", [x, bl, p], out=b.tensor("y", oshape, dtype, *q)))
    return b


@pytest.mark.parametrize(
    "args, match",
    [
        (([1, 3, 3, 2], [2, 2], [[0, 0], [0, 1]], [4, 2, 2, 2]), "padded height 3 and width 4 must be multiples"),
        (([1, 3, 3, 2], [2, 2], [[1, 0], [0, 1]], [4, 2, 3, 2]), "give \\[4, 2, 2, 2\\]"),
        (([1, 3, 3, 2], [2, 2], [[-1, 1], [0, 1]], [4, 2, 2, 2]), "non-negative"),
        (([1, 3, 3, 2], [2], [[1, 0], [0, 1]], [4, 2, 2, 2]), "2 positive sizes"),
        (([1, 2, 3, 3, 2], [2, 2], [[1, 0], [0, 1]], [4, 2, 2, 2]), "3-D NHC and 4-D NHWC"),
        (([1, 3, 3, 2], [2, 2], [[1, 0], [0, 1]], [4, 2, 2, 2], "int16", (0.001, 3)), "zero point"),
    ],
)
def test_space_to_batch_nd_refused(tmp_path, args, match):
    with pytest.raises((CompileError, UnsupportedError), match=match) as e:
        _compile(tmp_path, _s2b(*args))
    assert "SPACE_TO_BATCH_ND" in str(e.value) and "\n\n" not in str(e.value)


def test_space_to_batch_nd_paddings_use_its_own_kernel(tmp_path):
    """Paddings (or a 3-D input) take the space-to-batch kernel with the output zero point as the pad byte; 4-D
    without paddings stays a strided view."""
    src = _compile(tmp_path, _s2b([1, 3, 3, 2], [2, 2], [[1, 0], [0, 1]], [4, 2, 2, 2], "int8", (0.05, -7)))
    code = " ".join(src.files["m.c"].split())
    assert "aot_space_to_batch_nd(" in code and "m_op0_block_pad, -7);" in code
    src = _compile(tmp_path, _s2b([1, 4, 4, 2], [2, 2], [[0, 0], [0, 0]], [4, 2, 2, 2], "int8", (0.05, -7)))
    assert "aot_space_to_batch_nd(" not in src.files["m.c"]
