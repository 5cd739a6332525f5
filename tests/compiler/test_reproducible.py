"""Compiling a model twice gives byte-identical files, whatever the output directory, the path the model is given
by, the working directory or Python's hash seed (set and dict ordering must never leak into the output)."""

import filecmp
import os
import subprocess
import sys

import pytest

from conftest import REPO, SHARED_MODELS, shared_model_path

OWN_MODELS = [
    os.path.join(REPO, "tests", "models", "mobilenet_v1_025_96_int8.tflite"),
    os.path.join(REPO, "e2e", "tiny_mobilenet_int8.tflite"),
]


def _compile(model, out_dir, cwd, hash_seed, target):
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=REPO)
    r = subprocess.run(
        [sys.executable, "-m", "compiler", "compile", model, "--prefix", "m", "--out_dir", out_dir, "--target", target],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    return sorted(os.listdir(out_dir))


@pytest.mark.parametrize("which", list(SHARED_MODELS) + OWN_MODELS)
def test_two_compiles_are_byte_identical(which, tmp_path):
    model = which if os.path.isabs(which) else shared_model_path(which)
    if not os.path.exists(model):
        pytest.skip(f"{model} not found")
    a, b = tmp_path / "a", tmp_path / "elsewhere" / "b"
    link_dir = tmp_path / "links"
    link_dir.mkdir()
    os.symlink(model, link_dir / os.path.basename(model))
    files_a = _compile(model, str(a), REPO, 1, "cortex-m4")
    files_b = _compile(os.path.basename(model), str(b), str(link_dir), 4242, "cortex-m4")
    assert files_a == files_b == ["m.c", "m.h", "m.json", "m_plan.svg", "m_weights.c"]
    match, mismatch, errors = filecmp.cmpfiles(a, b, files_a, shallow=False)
    assert not mismatch and not errors, mismatch
