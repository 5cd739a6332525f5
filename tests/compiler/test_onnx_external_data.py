"""ONNX external data: weights in a side file `model.onnx.data` (torch.onnx.export's default) are read from beside
the model and the result matches onnxruntime, and `aotc quantize` (onnxruntime's quantizer) reads them too; a missing
side file, a path that leaves the model's directory, and a
side file too short for the tensors are each refused in one paragraph naming the tensor and the file."""

import os
import shutil
import sys

import numpy as np
import onnx
import pytest

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError
from compiler.frontend.onnx_reader import load_onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import make_onnx_external  # noqa: E402


def _write(tmp_path):
    path = str(tmp_path / "net.onnx")
    make_onnx_external.save_external(make_onnx_external.make_model(), path)
    assert os.path.exists(path + ".data")
    return path


def test_external_weights_match_onnxruntime(tmp_path):
    import onnxruntime as ort

    path = _write(tmp_path)
    x = np.random.default_rng(3).normal(size=(4, 1, 2, 8, 8)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = np.load(tmp_path / "out.npz")["y"]
    sess = ort.InferenceSession(path)
    want = np.stack([sess.run(None, {"x": xi})[0] for xi in x])
    # float32 Conv + Gemm sums in another order than onnxruntime's: a few ulps of the outputs (about 1).
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_committed_model_is_the_generated_one():
    path = os.path.join(HERE, "..", "models", "onnx_external.onnx")
    if not os.path.exists(path):
        pytest.skip("tests/models/onnx_external.onnx is not in this checkout")
    ext = [t for t in onnx.load(path, load_external_data=False).graph.initializer if t.external_data]
    assert {"w", "fc"} <= {t.name for t in ext}, "the committed model must keep its weights in the side file"
    assert len(load_onnx(path).ops) >= 3


def test_missing_side_file_is_named(tmp_path):
    path = _write(tmp_path)
    os.remove(path + ".data")
    with pytest.raises(CompileError, match=r"side file 'net.onnx.data', which is not beside the model.*model_data"):
        load_onnx(path)


def test_side_file_too_short(tmp_path):
    path = _write(tmp_path)
    with open(path + ".data", "r+b") as f:
        f.truncate(100)
    with pytest.raises(CompileError, match=r"needs \d+ bytes, but its external data claims .* of 'net.onnx.data'"):
        load_onnx(path)


@pytest.mark.parametrize("location", ["../net.onnx.data", "/etc/passwd", "sub/net.onnx.data", ".."])
def test_paths_are_never_followed(tmp_path, location):
    path = _write(tmp_path)
    model = onnx.load(path, load_external_data=False)
    for t in model.graph.initializer:
        for e in t.external_data:
            if e.key == "location":
                e.value = location
    sub = tmp_path / "sub"
    sub.mkdir()
    shutil.copy(path + ".data", sub / "net.onnx.data")
    onnx.save_model(model, path)
    with pytest.raises(CompileError, match="plain file name in the model's own directory"):
        load_onnx(path)


def test_in_memory_model_with_external_data_is_refused(tmp_path):
    from compiler.frontend.onnx_reader import read_onnx

    model = onnx.load(_write(tmp_path), load_external_data=False)
    with pytest.raises(CompileError, match="stores its data outside the model file"):
        read_onnx(model, "net.onnx")


def _quantize(path: str, out: str) -> None:
    from compiler.quantize.ort_static import quantize_qdq

    rng = np.random.default_rng(5)
    samples = [{"x": rng.normal(size=(1, 2, 8, 8)).astype(np.float32)} for _ in range(4)]
    quantize_qdq(path, samples, out, per_channel=True, activations="int8")


def test_quantizer_reads_the_side_file(tmp_path):
    """onnxruntime's pre-processing copies the model into a directory of its own, where the side file is not: the
    weights are read in first, and the QDQ model is the one the same weights give when stored inside the file."""
    path = _write(tmp_path)
    _quantize(path, str(tmp_path / "q.onnx"))
    inline = str(tmp_path / "inline.onnx")
    onnx.save(onnx.load(path), inline)
    _quantize(inline, str(tmp_path / "q_inline.onnx"))
    with open(tmp_path / "q.onnx", "rb") as a, open(tmp_path / "q_inline.onnx", "rb") as b:
        assert a.read() == b.read()
    q = onnx.load(str(tmp_path / "q.onnx"), load_external_data=False)
    assert not [t.name for t in q.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL]


def test_quantizer_names_a_missing_side_file(tmp_path):
    path = _write(tmp_path)
    os.remove(path + ".data")
    with pytest.raises(CompileError, match=r"net.onnx keeps weights in a side file that could not be read.*beside"):
        _quantize(path, str(tmp_path / "q.onnx"))
