"""Size limits refuse what a hostile or mistaken model claims, before memory is allocated, with a clear message."""

import numpy as np
import pytest

from compiler import limits
from compiler.driver import compile_model
from compiler.errors import CompileError
from tflite_builder import ModelBuilder


@pytest.fixture(autouse=True)
def default_limits():
    limits.configure()
    yield
    limits.configure()


def _relu(tmp_path, shape):
    b = ModelBuilder()
    x = b.input("x", shape, "float32")
    b.output(b.op("RELU", [x], out=b.tensor("y", shape, "float32")))
    return b.save(tmp_path / "m.tflite")


def test_huge_claimed_activation_is_refused_without_allocating(tmp_path):
    # 2^62 bytes claimed by a 300-byte file: must fail on the claim, not on a MemoryError.
    path = _relu(tmp_path, [1 << 20, 1 << 20, 1 << 20])
    with pytest.raises(CompileError, match=r"Tensor 0 'x' with shape .* larger than the limit of 67108864 bytes"):
        compile_model(path, "m", "host")


def test_tensor_limit_is_configurable(tmp_path):
    path = _relu(tmp_path, [1, 1024])
    compile_model(path, "m", "host")
    limits.configure(max_tensor_bytes=1024)
    with pytest.raises(CompileError, match="--max_tensor_bytes"):
        compile_model(path, "m", "host")


def test_rank_limit(tmp_path):
    path = _relu(tmp_path, [1] * 7)
    with pytest.raises(CompileError, match="rank 7; at most 6"):
        compile_model(path, "m", "host")


def test_weight_and_file_limits(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 64], "float32")
    w = b.const("w", np.ones((64, 64), np.float32), "float32")
    b.output(b.op("FULLY_CONNECTED", [x, w, None], out=b.tensor("y", [1, 64], "float32")))
    path = b.save(tmp_path / "fc.tflite")
    compile_model(path, "m", "host")
    limits.configure(max_weight_bytes=8192)
    with pytest.raises(CompileError, match="16384 bytes of constant data, over the limit of 8192"):
        compile_model(path, "m", "host")
    limits.configure(max_model_bytes=1000)
    with pytest.raises(CompileError, match="over the limit of 1000 bytes for a model file"):
        compile_model(path, "m", "host")


def test_cli_flags(tmp_path):
    import subprocess
    import sys
    from conftest import REPO

    path = _relu(tmp_path, [1, 4096])
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "compiler",
            "compile",
            path,
            "--prefix",
            "m",
            "--out_dir",
            tmp_path,
            "--max_tensor_bytes",
            "4K",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and "4096 bytes per tensor" in r.stderr


def test_op_limit_and_a_model_at_it_compiles_quickly(tmp_path):
    # A model at the operator limit must compile in seconds (the planner used to be quadratic in Python: minutes
    # here); one more operator than the limit is refused up front. CPU time of this process, not wall time: other
    # tests running beside it on a loaded machine must not make it fail.
    import time

    b = ModelBuilder()
    h = b.input("x", [1, 4], "float32")
    for i in range(limits.Limits().max_ops):
        h = b.op("RELU", [h], out=b.tensor(f"t{i}", [1, 4], "float32"))
    b.output(h)
    path = b.save(tmp_path / "deep.tflite")
    t0 = time.process_time()
    compile_model(path, "m", "host")
    assert time.process_time() - t0 < 60
    limits.configure(max_ops=limits.Limits().max_ops - 1)
    with pytest.raises(CompileError, match="10000 operators"):
        compile_model(path, "m", "host")
