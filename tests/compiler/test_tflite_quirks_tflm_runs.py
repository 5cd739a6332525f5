"""Shape quirks TFLite Micro tolerates, compiled as it runs them, and features it cannot run, refused by name.

- RESHAPE whose constant shape operand has shape [0] (converters write it in IF branches): TFLite Micro takes the
  output tensor's stored shape; so do we.
- A tensor whose signature has -1s (an audio front end exported with [-1, -1]) but whose stored shape is static:
  TFLite Micro never resizes a tensor and runs at the stored shape; so do we.  A -1 with no positive stored size
  stays refused.
- Sparse tensors and float16 weights: one paragraph naming sparsity / float16 weights and saying TFLite Micro
  cannot run them either.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402
from compiler.commands.run_cmd import run_model  # noqa: E402


@needs_tflm
@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_reshape_with_empty_constant_shape_takes_the_stored_output_shape(tmp_path, dtype):
    q = (0.1, 3) if dtype == "int8" else (None, None)
    b = ModelBuilder()
    x = b.input("x", [2, 6], dtype, *q)
    s = b.const("shape", np.zeros([0], np.int32), "int32")
    r = b.op("RESHAPE", [x, s], out=b.tensor("r", [3, 4], dtype, *q))
    b.output(b.op("RELU", [r], out=b.tensor("y", [3, 4], dtype, *q)))
    check_against_tflm(tmp_path, b)


def _signature_model(stored):
    b = ModelBuilder()
    x = b.input("audio", stored, "float32")
    g = b.const("gain", np.linspace(-1, 1, stored[1]).astype(np.float32).reshape(1, -1), "float32")
    y = b.op("MUL", [x, g], out=b.tensor("y", stored, "float32"))
    b.output(b.op("TANH", [y], out=b.tensor("z", stored, "float32")))
    for i in (x.index, y.index):
        b._tensors[i].shapeSignature = [-1, -1]
    return b


@needs_tflm
def test_dynamic_signature_runs_at_the_stored_shape(tmp_path):
    b = _signature_model([1, 48])
    graph = check_against_tflm(tmp_path, b)
    assert list(graph.inputs[0].shape) == [1, 48]


def test_dynamic_dimension_without_a_stored_size_is_refused(tmp_path):
    b = _signature_model([1, 48])
    b._tensors[0].shape = [1, -1]
    path = b.save(tmp_path / "m.tflite")
    with pytest.raises(CompileError, match="dynamic or unknown shape"):
        compile_model(str(path), "m", "host")


def _sparse_fc_model():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    w = b.const("w_sparse", np.eye(4, dtype=np.float32), "float32")
    bias = b.const("bias", np.zeros(4, np.float32), "float32")
    b.output(b.op("FULLY_CONNECTED", [x, w, bias], out=b.tensor("y", [1, 4], "float32")))
    sp = fb.SparsityParametersT()
    sp.traversalOrder = [0, 1]
    dm = fb.DimensionMetadataT()
    dm.format = 0
    dm.denseSize = 4
    sp.dimMetadata = [dm, dm]
    b._tensors[w.index].sparsity = sp
    return b


def test_sparse_tensor_is_refused_by_name(tmp_path):
    path = _sparse_fc_model().save(tmp_path / "sparse.tflite")
    with pytest.raises(CompileError) as e:
        compile_model(str(path), "m", "host")
    msg = str(e.value)
    assert "'w_sparse' is stored sparse" in msg and "TFLite Micro" in msg and "\n" not in msg


@needs_tflm
def test_float16_weights_are_refused_by_name_and_tflm_refuses_them_too(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    w = b.const("w16", np.linspace(-2, 2, 4).astype(np.float16), "float16")
    d = b.op("DEQUANTIZE", [w], out=b.tensor("w", [4], "float32"))
    b.output(b.op("MUL", [x, d], out=b.tensor("y", [4], "float32")))
    path = b.save(tmp_path / "fp16.tflite")
    with pytest.raises(CompileError) as e:
        compile_model(str(path), "m", "host")
    msg = str(e.value)
    assert "'w16' holds float16 weights, read by DEQUANTIZE" in msg and "TFLite Micro" in msg
    with pytest.raises(RuntimeError):
        tflm_outputs(str(path), [[np.ones(4, np.float32)]], 1)


def _front_end(samples, frame=32, units=8):
    """A float audio front end stored at `samples` with signature [-1, -1] (what TFLite writes for a length left
    open): frames of `frame` samples (RESHAPE to [1, -1, frame]), a window (MUL), a projection (FULLY_CONNECTED,
    keep_num_dims), ABS, log(1 + x), per-frame features out and their mean over the frames (MEAN) out."""
    rng = np.random.default_rng(3)
    frames = samples // frame
    b = ModelBuilder()
    x = b.input("audio", [1, samples], "float32")
    shape = b.const("frames", np.array([1, -1, frame], np.int32), "int32")
    r = b.op("RESHAPE", [x, shape], out=b.tensor("framed", [1, frames, frame], "float32"))
    win = b.const("window", np.hanning(frame).astype(np.float32), "float32")
    w = b.op("MUL", [r, win], out=b.tensor("windowed", [1, frames, frame], "float32"))
    weights = b.const("basis", rng.normal(size=(units, frame)).astype(np.float32), "float32")
    p = b.op(
        "FULLY_CONNECTED",
        [w, weights, None],
        out=b.tensor("proj", [1, frames, units], "float32"),
        options={"keepNumDims": True},
    )
    a = b.op("ABS", [p], out=b.tensor("mag", [1, frames, units], "float32"))
    one = b.const("one", np.ones([1], np.float32), "float32")
    s = b.op("ADD", [a, one], out=b.tensor("mag1", [1, frames, units], "float32"))
    feats = b.op("LOG", [s], out=b.tensor("features", [1, frames, units], "float32"))
    axis = b.const("axis", np.array([1], np.int32), "int32")
    mean = b.op("MEAN", [feats, axis], out=b.tensor("summary", [1, units], "float32"))
    b.output(feats, mean)
    for t in (x, r, w, p, a, s, feats):
        b._tensors[t.index].shapeSignature = [-1] * len(b._tensors[t.index].shape)
    return b


@needs_tflm
def test_input_shape_sets_the_length_of_a_dynamic_signature(tmp_path):
    """--input_shape audio=1,320 on a front end stored at [1, 96]: compiled at 10 frames, and equal to TFLite Micro
    running the same front end stored at [1, 320] (built independently, not rewritten by us); the oracle path of
    testgen (the model rewritten at the propagated shapes) gives the same outputs."""
    from compiler import driver
    from compiler.oracle import reference_outputs
    from compiler.reference import reference_cases

    stored = _front_end(96).save(tmp_path / "fe96.tflite")
    independent = _front_end(320).save(tmp_path / "fe320.tflite")
    driver.ONNX_INPUT_SHAPES["audio"] = [1, 320]
    try:
        compiled = compile_model(str(stored), "fe", "host")
        ref = reference_cases(str(stored), 2, 5)
        rewritten = reference_outputs(str(stored), compiled.graph, ref.cases)
        in_npz = tmp_path / "inputs.npz"
        np.savez(in_npz, audio=np.stack([c[0] for c in ref.cases]))
        got = run_model(str(stored), str(in_npz), None, target="host")
    finally:
        driver.ONNX_INPUT_SHAPES.clear()
    assert [list(t.shape) for t in compiled.graph.outputs] == [[1, 10, 8], [1, 8]]
    want = tflm_outputs(str(independent), ref.cases, 2)
    for n, want_case in enumerate(want):
        for k, t in enumerate(compiled.graph.outputs):
            np.testing.assert_array_equal(rewritten[n][k], want_case[k])
            np.testing.assert_allclose(got[t.name][n], want_case[k].reshape(t.shape), rtol=1e-5, atol=1e-6)


def test_input_shape_refusals_name_the_dimension_or_the_operator(tmp_path):
    from compiler import driver

    stored = _front_end(96).save(tmp_path / "fe96.tflite")
    b = ModelBuilder()  # an operator without a shape rule downstream of the input
    x = b.input("audio", [1, 48], "float32")
    axis = b.const("axis", np.array([1], np.int32), "int32")
    b.output(b.op("REVERSE_V2", [x, axis], out=b.tensor("t", [1, 48], "float32")))
    b._tensors[x.index].shapeSignature = [-1, -1]
    reverse = b.save(tmp_path / "reverse.tflite")
    cases = [
        (stored, {"audio": [2, 320, 1]}, "has rank 2"),
        (stored, {"audio": [1, 100]}, r"operator 0 \(RESHAPE\).*100 elements do not fill its target \[1, -1, 32\]"),
        (stored, {"nope": [1, 64]}, "has no input 'nope'"),
        (reverse, {"audio": [1, 64]}, r"operator 0 \(REVERSE_V2\) cannot take the new shapes.*no shape rule"),
    ]
    for path, shapes, msg in cases:
        driver.ONNX_INPUT_SHAPES.update(shapes)
        try:
            with pytest.raises(CompileError, match=msg):
                compile_model(str(path), "fe", "host")
        finally:
            driver.ONNX_INPUT_SHAPES.clear()


def _gram_front_end(n: int):
    """openWakeWord's mel-spectrogram pattern at length n: frames of 4 samples, TRANSPOSE, a BATCH_MATMUL of the
    frames with themselves, and TensorFlow's clip_by_value with an open upper bound (MINIMUM with +inf)."""
    b = ModelBuilder()
    x = b.input("audio", [1, n], "float32")
    frames = n // 4
    target = b.const("target", np.array([1, -1, 4], np.int32), "int32")
    r = b.op("RESHAPE", [x, target], out=b.tensor("frames", [1, frames, 4], "float32"))
    perm = b.const("perm", np.array([0, 2, 1], np.int32), "int32")
    t = b.op("TRANSPOSE", [r, perm], out=b.tensor("cols", [1, 4, frames], "float32"))
    g = b.op("BATCH_MATMUL", [t, r], out=b.tensor("gram", [1, 4, 4], "float32"))
    inf = b.const("inf", np.array([np.inf], np.float32), "float32")
    lo = b.const("lo", np.array([-np.inf], np.float32), "float32")
    m = b.op("MINIMUM", [g, inf], out=b.tensor("clipped", [1, 4, 4], "float32"))
    b.output(b.op("MAXIMUM", [lo, m], out=b.tensor("y", [1, 4, 4], "float32")))
    for tensor in (x, r, t):
        b._tensors[tensor.index].shapeSignature = [-1] * len(b._tensors[tensor.index].shape)
    return b


@needs_tflm
def test_input_shape_through_transpose_and_batch_matmul_with_open_clip(tmp_path):
    """--input_shape audio=1,64 on a model stored at [1, 16]: equal to TFLite Micro running the same model stored at
    [1, 64]; MINIMUM with +inf and MAXIMUM with -inf (constants no C float literal can hold: the operands point at
    the CRT's aot_f32_infinities) computed exactly as TFLite Micro does, +inf and NaN inputs included."""
    from compiler import driver

    stored = _gram_front_end(16).save(tmp_path / "g16.tflite")
    independent = _gram_front_end(64).save(tmp_path / "g64.tflite")
    rng = np.random.default_rng(9)
    cases = [[rng.uniform(-1, 1, (1, 64)).astype(np.float32)] for _ in range(2)]
    cases.append([np.where(np.arange(64) % 7 == 0, np.inf, 0.5).astype(np.float32).reshape(1, 64)])
    cases.append([np.where(np.arange(64) == 3, np.nan, 0.25).astype(np.float32).reshape(1, 64)])
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, audio=np.stack([c[0] for c in cases]))
    driver.ONNX_INPUT_SHAPES["audio"] = [1, 64]
    try:
        got = run_model(str(stored), str(in_npz), None, target="host")
    finally:
        driver.ONNX_INPUT_SHAPES.clear()
    want = tflm_outputs(str(independent), cases, 1)
    for n, w in enumerate(want):
        np.testing.assert_array_equal(got["y"][n], w[0].reshape(1, 4, 4))
