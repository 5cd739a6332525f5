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
