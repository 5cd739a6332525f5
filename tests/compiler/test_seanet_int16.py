"""The SEANet layers of the field corpus (int16x8 audio layers TFLite Micro's integration tests cut from a real
network: field/seanet/<op>/<op>N.tflite) compile and are bit-exact with the TFLite Micro interpreter on seeded
inputs over the whole int16 range.  Skipped with a message when the field models are absent ($AOT_MODELS_DIR/field,
or ../shared/models/field beside the checkout).  Folders of operators handled elsewhere (conv, transpose_conv) are
listed in FOLDERS as they become supported."""

import glob
import os

import numpy as np
import pytest

from conftest import models_dir

from compiler.commands.run_cmd import run_model
from compiler.driver import load_model
from compiler.oracle import random_inputs, tflm_available, tflm_outputs

FOLDERS = ("add", "sub", "leaky_relu", "pad", "quantize", "strided_slice", "conv", "transpose_conv")
CASES = 3


def _seanet_dir() -> str:
    return os.path.join(models_dir(), "field", "seanet")


def _models() -> list:
    found = []
    for folder in FOLDERS:
        found += sorted(glob.glob(os.path.join(_seanet_dir(), folder, "*.tflite")))
    return found or [None]


def _label(path) -> str:
    return "absent" if path is None else os.path.relpath(path, _seanet_dir())


@pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")
@pytest.mark.parametrize("path", _models(), ids=_label)
def test_seanet_layer_bit_exact(tmp_path, path):
    if path is None:
        pytest.skip(f"SEANet field models not found in {_seanet_dir()} (set AOT_MODELS_DIR)")
    graph = load_model(path)
    cases = random_inputs(graph, CASES, seed=len(path))
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, **{t.name: np.stack([c[i] for c in cases]) for i, t in enumerate(graph.inputs)})
    got = run_model(path, str(in_npz), None)
    want = tflm_outputs(path, cases, len(graph.outputs))
    for k, t in enumerate(graph.outputs):
        for n, case_want in enumerate(want):
            g, w = got[t.name][n], np.asarray(case_want[k]).reshape(t.shape)
            diff = np.flatnonzero(g.astype(np.int64) != w.astype(np.int64))
            assert diff.size == 0, (
                f"{_label(path)} case {n}: {diff.size} of {g.size} values differ; first at "
                f"{diff[0]}: got {g.reshape(-1)[diff[0]]}, TFLM {w.reshape(-1)[diff[0]]}"
            )
