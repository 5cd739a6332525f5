"""Small PyTorch models exported with both torch.onnx.export exporters (tests/models/make_torch_exports.py: GRU and
bidirectional LSTM keyword spotters, PixelShuffle, GroupNorm, a ViT patch embedding with `expand(1, -1, -1)` and
LayerNorm, a one-layer transformer encoder) compile and match onnxruntime on the host.

Tolerance: float32 models whose sums run in another order than onnxruntime's: rtol 1e-4, atol 1e-5 (observed
differences are a few float32 ulps of the outputs)."""

import glob
import os

import numpy as np
import pytest

from compiler.commands.run_cmd import run_model

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")
_FILES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(MODELS, "torch_*.onnx")))


def test_the_exports_are_committed():
    assert len(_FILES) == 12, _FILES


@pytest.mark.parametrize("name", _FILES)
def test_export_matches_onnxruntime(tmp_path, name):
    import onnxruntime as ort

    path = os.path.join(MODELS, name)
    sess = ort.InferenceSession(path)
    inp = sess.get_inputs()[0]
    x = np.random.default_rng(len(name)).normal(size=(3,) + tuple(inp.shape)).astype(np.float32)
    np.savez(tmp_path / "in.npz", **{inp.name: x})
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = dict(np.load(tmp_path / "out.npz"))
    for i in range(len(x)):
        for o, want in zip(sess.get_outputs(), sess.run(None, {inp.name: x[i]})):
            np.testing.assert_allclose(got[o.name][i], want, rtol=1e-4, atol=1e-5, err_msg=f"{name} case {i}")
