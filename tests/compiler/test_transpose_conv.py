"""TRANSPOSE_CONV bit-exact against the TFLite Micro interpreter: int8 per-channel and per-tensor, float32, over
strides, SAME/VALID padding, output sizes TFLM accepts beyond the natural one, optional bias, fused activations
and extreme quantization (zero points at the int8 limits, near-dead and large rescaling factors, biases near the
int32 limits).  int16x8 cases live in test_int16_conv.py."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, check_against_tflm, needs_tflm  # noqa: E402

from compiler.driver import analyze  # noqa: E402
from compiler.errors import CompileError  # noqa: E402


def tconv_model(
    in_shape,
    oc,
    k,
    stride,
    padding,
    out_hw,
    dtype="int8",
    bias=True,
    act="NONE",
    per_channel=True,
    in_q=(0.05, -3),
    out_q=(0.08, 5),
    w_scale=(0.002, 0.01),
    bias_range=3000,
    seed=0,
    bias_dtype=None,
):
    """One TRANSPOSE_CONV: input `in_shape` (NHWC), filter [oc, kh, kw, ic] random, output [n, *out_hw, oc]."""
    rng = np.random.default_rng(seed)
    n, _, _, ic = in_shape
    kh, kw = (k, k) if isinstance(k, int) else k
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    b = ModelBuilder()
    out_shape = [n, out_hw[0], out_hw[1], oc]
    shape_t = b.const("output_shape", np.array(out_shape, np.int32), "int32")
    if dtype == "float32":
        x = b.input("x", in_shape, "float32")
        w = b.const("w", rng.uniform(-1, 1, size=(oc, kh, kw, ic)).astype(np.float32), "float32")
        bt = b.const("b", rng.uniform(-1, 1, size=oc).astype(np.float32), "float32") if bias else None
        y = b.tensor("y", out_shape, "float32")
    else:
        x = b.input("x", in_shape, dtype, *in_q)
        ws = rng.uniform(*w_scale, size=oc) if per_channel else np.float32(w_scale[0])
        w = b.const(
            "w", rng.integers(-127, 128, size=(oc, kh, kw, ic)).astype(np.int8), "int8", ws, 0, quantized_dimension=0
        )
        bdt = bias_dtype or ("int32" if dtype == "int8" else "int64")
        bvals = rng.integers(-bias_range, bias_range + 1, size=oc)
        bs = np.float32(in_q[0]) * np.asarray(ws, np.float32)
        bt = b.const("b", bvals, bdt, bs, 0, quantized_dimension=0) if bias else None
        y = b.tensor("y", out_shape, dtype, *out_q)
    opts = {"padding": 0 if padding == "SAME" else 1, "strideH": sh, "strideW": sw, "fusedActivationFunction": ACT[act]}
    b.op("TRANSPOSE_CONV", [shape_t, w, x] + ([bt] if bias else []), y, opts)
    b.output(y)
    return b


def natural(in_hw, k, stride, padding):
    k = (k, k) if isinstance(k, int) else k
    s = (stride, stride) if isinstance(stride, int) else stride
    if padding == "SAME":
        return [in_hw[i] * s[i] for i in range(2)]
    return [(in_hw[i] - 1) * s[i] + k[i] for i in range(2)]


# (name, input shape, out channels, kernel, stride, padding, output size or None for the natural one, extra kwargs)
INT8_CASES = [
    ("s2_same_3x3", [1, 4, 5, 3], 4, 3, 2, "SAME", None, {}),
    ("s2_valid_3x3", [1, 4, 5, 3], 4, 3, 2, "VALID", None, {}),
    ("s1_same_3x3", [1, 5, 4, 6], 5, 3, 1, "SAME", None, {}),
    ("s1_valid_2x2", [1, 3, 3, 2], 3, 2, 1, "VALID", None, {}),
    ("s3x2_valid_4x3", [1, 3, 4, 5], 7, (4, 3), (3, 2), "VALID", None, {}),
    ("k1_s2", [1, 3, 3, 4], 4, 1, 2, "SAME", None, {}),
    ("stride_gt_kernel", [1, 3, 3, 2], 3, 2, 3, "VALID", None, {}),
    ("batch2_no_bias", [2, 3, 4, 3], 4, 3, 2, "SAME", None, dict(bias=False)),
    ("odd_output_same", [1, 4, 4, 3], 4, 3, 2, "SAME", [7, 8], {}),
    ("seanet_like", [1, 1, 5, 8], 8, (3, 4), (1, 2), "VALID", None, {}),
    ("relu", [1, 4, 5, 3], 4, 3, 2, "SAME", None, dict(act="RELU")),
    ("relu6", [1, 4, 5, 3], 4, 3, 2, "SAME", None, dict(act="RELU6", out_q=(0.03, -20))),
    ("relu_n1_to_1", [1, 3, 3, 4], 2, 3, 2, "VALID", None, dict(act="RELU_N1_TO_1", out_q=(0.01, 3))),
    ("per_tensor", [1, 4, 4, 3], 4, 3, 2, "SAME", None, dict(per_channel=False)),
    ("zero_points_at_limits", [1, 4, 4, 3], 4, 3, 2, "SAME", None, dict(in_q=(0.05, 127), out_q=(0.08, -128))),
    ("zero_points_at_limits_2", [1, 4, 4, 3], 4, 3, 2, "VALID", None, dict(in_q=(0.02, -128), out_q=(0.5, 127))),
    ("near_dead_channels", [1, 3, 3, 4], 6, 3, 2, "SAME", None, dict(w_scale=(1e-10, 2e-3))),
    ("scale_above_one", [1, 3, 3, 1], 2, 1, 2, "SAME", None, dict(in_q=(1.0, 0), w_scale=(0.5, 1.0), out_q=(0.25, 0))),
    (
        "large_input_scale",
        [1, 3, 3, 4],
        4,
        3,
        2,
        "SAME",
        None,
        dict(in_q=(2.0, 0), w_scale=(0.5, 1.0), out_q=(400.0, 0)),
    ),
    ("bias_near_int32_limits", [1, 3, 3, 4], 4, 3, 2, "SAME", None, dict(bias_range=2**31 - 2**22, out_q=(2e3, 0))),
    ("deep_channels", [1, 2, 3, 64], 16, 3, 2, "SAME", None, {}),
]


@needs_tflm
@pytest.mark.parametrize("name,in_shape,oc,k,stride,padding,out_hw,kw", INT8_CASES, ids=[c[0] for c in INT8_CASES])
def test_transpose_conv_int8(tmp_path, name, in_shape, oc, k, stride, padding, out_hw, kw):
    out_hw = out_hw or natural(in_shape[1:3], k, stride, padding)
    b = tconv_model(in_shape, oc, k, stride, padding, out_hw, **kw)
    check_against_tflm(tmp_path, b, seed=len(name))


FLOAT_CASES = [
    ("s2_same", [1, 4, 5, 3], 4, 3, 2, "SAME", None, {}),
    ("s2_valid_no_bias", [1, 3, 4, 2], 3, (3, 2), 2, "VALID", None, dict(bias=False)),
    ("s1_relu", [1, 4, 4, 3], 2, 3, 1, "SAME", None, dict(act="RELU")),
    ("s3_relu6_batch2", [2, 2, 3, 3], 4, 3, 3, "SAME", None, dict(act="RELU6")),
    ("odd_output", [1, 3, 3, 2], 3, 3, 2, "SAME", [5, 6], {}),
]


@needs_tflm
@pytest.mark.parametrize("name,in_shape,oc,k,stride,padding,out_hw,kw", FLOAT_CASES, ids=[c[0] for c in FLOAT_CASES])
def test_transpose_conv_float(tmp_path, name, in_shape, oc, k, stride, padding, out_hw, kw):
    out_hw = out_hw or natural(in_shape[1:3], k, stride, padding)
    check_against_tflm(
        tmp_path,
        tconv_model(in_shape, oc, k, stride, padding, out_hw, dtype="float32", **kw),
        seed=len(name),
        float_range=(-2.0, 2.0),
    )


def test_transpose_conv_needs_no_scratch(tmp_path):
    """The gather kernel writes each output once: no accumulator scratch (TFLM's scatter form plans one int32
    per output value)."""
    graph, _, _ = analyze(tconv_model([1, 4, 5, 3], 4, 3, 2, "SAME", [8, 10]).save(tmp_path / "m.tflite"))
    (op,) = [o for o in graph.ops if o.kind == "TRANSPOSE_CONV"]
    assert op.kernel == "aot_transpose_conv_s8" and op.lowering.scratch_bytes(op) == 0


def test_reject_transpose_conv_output_shape_mismatch(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 3, 3, 2], "int8", 0.05, 0)
    shape_t = b.const("output_shape", np.array([1, 6, 6, 2], np.int32), "int32")
    w = b.const("w", np.ones((2, 3, 3, 2), np.int8), "int8", 0.01, 0)
    y = b.tensor("y", [1, 7, 7, 2], "int8", 0.1, 0)
    b.op("TRANSPOSE_CONV", [shape_t, w, x], y, {"padding": 0, "strideH": 2, "strideW": 2})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert "output shape" in str(err) and "TRANSPOSE_CONV" in str(err)


@needs_tflm
def test_transpose_conv_runtime_output_shape_is_ignored_like_tflm(tmp_path):
    """SEANet's models pass the output shape as a model input: TFLite Micro ignores its values (no dynamic
    shapes) and so do we."""
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.input("x", [1, 3, 3, 2], "float32")
    s = b.input("s", [4], "int32")
    w = b.const("w", rng.uniform(-1, 1, (2, 3, 3, 2)).astype(np.float32), "float32")
    y = b.tensor("y", [1, 6, 6, 2], "float32")
    b.op("TRANSPOSE_CONV", [s, w, x], y, {"padding": 0, "strideH": 2, "strideW": 2})
    b.output(y)
    cases = [
        [rng.uniform(-1, 1, (1, 3, 3, 2)).astype(np.float32), np.array(v, np.int32)]
        for v in ([1, 6, 6, 2], [7, -1, 0, 99])
    ]
    check_against_tflm(tmp_path, b, cases=cases)


def test_reject_transpose_conv_output_shape_of_wrong_type(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 3, 3, 2], "float32")
    s = b.input("s", [2], "int32")
    w = b.const("w", np.ones((2, 3, 3, 2), np.float32), "float32")
    y = b.tensor("y", [1, 6, 6, 2], "float32")
    b.op("TRANSPOSE_CONV", [s, w, x], y, {"padding": 0, "strideH": 2, "strideW": 2})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert "int32 vector of 4" in str(err)


def test_reject_transpose_conv_tanh_activation(tmp_path):
    b = tconv_model([1, 3, 3, 2], 2, 3, 2, "SAME", [6, 6], act="TANH")
    err = _compile_error(tmp_path, b)
    assert isinstance(err, CompileError) and "TANH" in str(err)
