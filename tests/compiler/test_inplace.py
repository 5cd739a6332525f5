"""In-place element-wise ops (passes/alias.py): the output overwrites an input whose buffer dies at the op, only
when that is safe, and the results stay bit-exact with TFLite Micro."""

import numpy as np

from compiler.driver import analyze
from compiler.oracle import tflm_available
from tflite_builder import ModelBuilder
from test_ops_tflite import check_against_tflm

import pytest

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")
SHAPE = [1, 6, 5, 4]


def _chain_model():
    """x -> QUANTIZE q -> TANH t; ADD(t, q) a; MUL(a, c[4]) m; LOGISTIC(m) y (model output)."""
    b = ModelBuilder()
    x = b.input("x", SHAPE, "int8", 0.05, 3)
    q = b.op("QUANTIZE", [x], out=b.tensor("q", SHAPE, "int8", 0.04, -5))
    t = b.op("TANH", [q], out=b.tensor("t", SHAPE, "int8", 1.0 / 128, 0))
    a = b.op("ADD", [t, q], out=b.tensor("a", SHAPE, "int8", 0.06, 2), options={"fusedActivationFunction": 0})
    c = b.const("c", np.array([3, -7, 50, 127], np.int8), "int8", 0.02, 0)
    m = b.op("MUL", [a, c], out=b.tensor("m", SHAPE, "int8", 0.05, -1), options={"fusedActivationFunction": 0})
    y = b.op("LOGISTIC", [m], out=b.tensor("y", SHAPE, "int8", 1.0 / 256, -128))
    b.output(y)
    return b


def _offsets(tmp_path, builder):
    path = builder.save(tmp_path / "model.tflite")
    graph, storage_map, plan = analyze(path)
    assert plan.overlapping_live_pairs() == []
    by_name = {t.name: t for t in graph.tensors}
    return {n: plan.tensor_offset.get(t.index) for n, t in by_name.items()}, plan


def test_outputs_overwrite_inputs_that_die_at_the_op(tmp_path):
    off, plan = _offsets(tmp_path, _chain_model())
    assert off["x"] is None and off["y"] is None  # caller's buffers
    assert off["t"] != off["q"]  # q is still read by the ADD after TANH
    assert off["a"] == off["t"]  # ADD writes over its first input
    assert off["m"] == off["a"]  # MUL over its full-shape input, not the constant
    # Three tensors of 120 bytes at most are live together (q, t and nothing else): one buffer pair.
    assert plan.workspace_size == 2 * 128


@needs_tflm
def test_inplace_chain_is_bit_exact(tmp_path):
    check_against_tflm(tmp_path, _chain_model())


def test_broadcast_input_is_never_overwritten(tmp_path):
    # ADD(p, s) with s [1, 1, 1, 4] broadcast over p: only p may be overwritten, although s dies here too.
    b = ModelBuilder()
    x = b.input("x", SHAPE, "int8", 0.05, 3)
    v = b.input("v", [1, 1, 1, 4], "int8", 0.05, 0)
    p = b.op("RELU", [x], out=b.tensor("p", SHAPE, "int8", 0.05, 3))
    s = b.op("RELU", [v], out=b.tensor("s", [1, 1, 1, 4], "int8", 0.05, 0))
    y = b.op("ADD", [s, p], out=b.tensor("sum", SHAPE, "int8", 0.1, 0), options={"fusedActivationFunction": 0})
    r = b.op("RELU", [y], out=b.tensor("r", SHAPE, "int8", 0.1, 0))
    b.output(r)
    off, _ = _offsets(tmp_path, b)
    assert off["sum"] == off["p"] and off["sum"] != off["s"]
    if tflm_available():
        check_against_tflm(tmp_path, b)


def test_model_input_and_output_buffers_are_not_shared(tmp_path):
    # RELU straight on the model input and into the model output: nothing is planned in the workspace.
    b = ModelBuilder()
    x = b.input("x", SHAPE, "float32")
    b.output(b.op("RELU", [x], out=b.tensor("y", SHAPE, "float32")))
    off, plan = _offsets(tmp_path, b)
    assert off["x"] is None and off["y"] is None and plan.workspace_size == 0


def test_float_activation_chain_runs_in_one_buffer(tmp_path):
    b = ModelBuilder()
    x = b.input("x", SHAPE, "float32")
    h = b.op("MUL", [x, x], out=b.tensor("h", SHAPE, "float32"), options={"fusedActivationFunction": 0})
    h2 = b.op("TANH", [h], out=b.tensor("h2", SHAPE, "float32"))
    h3 = b.op("LOGISTIC", [h2], out=b.tensor("h3", SHAPE, "float32"))
    b.output(b.op("RELU", [h3], out=b.tensor("y", SHAPE, "float32")))
    off, plan = _offsets(tmp_path, b)
    assert off["h"] == off["h2"] == off["h3"] and plan.workspace_size == 480
    if tflm_available():
        check_against_tflm(tmp_path, b, float_range=(-2.0, 2.0))
