"""ONNX Cast on run-time data between float32, int8, uint8, int32 and bool (and float -> float, which is no work),
compared with onnxruntime exactly: every conversion is exact or a defined truncation for the values used (floats
within the target's range; out-of-range float -> integer is undefined in C and in onnxruntime). Casts to int64 at
run time are refused by name."""

import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx

T = TensorProto
_NP = {T.FLOAT: np.float32, T.INT8: np.int8, T.UINT8: np.uint8, T.INT32: np.int32, T.BOOL: np.bool_}


def _model(src, dst, path, shape=(2, 6)):
    g = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["c"], to=dst), helper.make_node("Identity", ["c"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", src, list(shape))],
        [helper.make_tensor_value_info("y", dst, list(shape))],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9), path)


def _inputs(src, rng, n=3, shape=(2, 6)):
    if src == T.FLOAT:
        x = rng.uniform(-120.0, 120.0, (n,) + shape).astype(np.float32)
        x[0, 0, :6] = [0.0, -0.0, 0.99, -0.99, 126.7, -127.9]
        return x
    if src == T.BOOL:
        return rng.integers(0, 2, (n,) + shape).astype(np.bool_)
    info = np.iinfo(_NP[src])
    lo, hi = max(info.min, -100000), min(info.max, 100000)
    x = rng.integers(lo, hi, (n,) + shape, endpoint=True).astype(_NP[src])
    x[0, 0, :2] = [info.min, info.max]
    return x


_PAIRS = [
    (s, d)
    for s in (T.FLOAT, T.INT8, T.UINT8, T.INT32, T.BOOL)
    for d in (T.FLOAT, T.INT8, T.UINT8, T.INT32, T.BOOL)
    # float -> uint8 only from non-negative data below (negative is out of range)
]


@pytest.mark.parametrize("src, dst", _PAIRS, ids=[f"{T.DataType.Name(s)}-{T.DataType.Name(d)}" for s, d in _PAIRS])
def test_cast_matches_onnxruntime(tmp_path, src, dst):
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(src, dst, path)
    x = _inputs(src, np.random.default_rng(src * 10 + dst))
    if src == T.FLOAT and dst == T.UINT8:
        x = np.abs(x) * 2  # in range of uint8
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = np.load(tmp_path / "out.npz")["y"]
    sess = ort.InferenceSession(path)
    for i in range(len(x)):
        want = sess.run(None, {"x": x[i]})[0]
        assert got[i].dtype == want.dtype
        np.testing.assert_array_equal(got[i], want)


def test_same_type_cast_is_no_work(tmp_path):
    path = str(tmp_path / "m.onnx")
    _model(T.FLOAT, T.FLOAT, path)
    g = load_onnx(path)
    assert not any(op.kind == "CAST" for op in g.ops)


def test_cast_to_int64_at_run_time_is_refused(tmp_path):
    path = str(tmp_path / "m.onnx")
    g = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["y"], to=T.INT64)],
        "g",
        [helper.make_tensor_value_info("x", T.FLOAT, [2])],
        [helper.make_tensor_value_info("y", T.INT64, [2])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9), path)
    with pytest.raises(CompileError, match=r"\(Cast\): a Cast of run-time data to INT64 is not supported"):
        load_onnx(path)
    assert os.path.exists(path)
