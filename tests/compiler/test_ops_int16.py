"""int16x8 quantization (int16 activations, symmetric, zero point 0): per-op bit-exactness against the TFLite Micro
interpreter, with the harness of test_ops_tflite.py (seeded inputs over the whole int16 range plus the extremes),
and the clear refusals of int16 variants that are not supported.  The int16 convolutions are tested beside their
int8 forms."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, check_against_tflm, needs_tflm  # noqa: E402

from compiler.errors import UnsupportedError  # noqa: E402

pytestmark = needs_tflm

I16_MIN, I16_MAX = -32768, 32767


def extremes_case(graph):
    """One case of each input's extreme values (-32768, 32767, -1, 0, 1 tiled), where rounding and saturation
    corner cases live."""
    case = []
    for t in graph.inputs:
        info = np.iinfo(t.dtype) if t.dtype != "float32" else None
        values = [info.min, info.max, -1, 0, 1, info.min + 1] if info else [-1.0, 1.0, 0.0, -0.5, 0.5]
        case.append(np.resize(np.array(values, t.dtype), t.num_elements).reshape(t.shape))
    return [case]


def check(tmp_path, b, seed=0, **kw):
    path = b.save(tmp_path / "probe.tflite")
    from compiler.driver import load_model

    return check_against_tflm(tmp_path, b, seed=seed, extra_cases=extremes_case(load_model(path)), **kw)


# --- QUANTIZE / DEQUANTIZE / RESHAPE ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "in_dtype,qin,out_dtype,qout",
    [
        ("float32", None, "int16", (1 / 32768, 0)),
        ("float32", None, "int16", (3e-5, 0)),
        ("int16", (0.0005, 0), "int8", (0.01, -3)),
        ("int16", (2e-6, 0), "int8", (0.3, 127)),
        ("int8", (0.05, 7), "int16", (0.0004, 0)),
        ("int8", (0.5, -128), "int16", (1e-6, 0)),
        ("int16", (0.0005, 0), "int16", (0.0007, 0)),
        ("int16", (0.0009, 0), "int16", (1e-7, 0)),
        ("int16", (0.0009, 0), "int16", (30.0, 0)),
        ("int16", (0.00049431244, 0), "int32", (1.4901161e-07, 0)),
        ("int32", (1.4901161e-07, 0), "int16", (0.00092197146, 0)),
        ("int8", (0.05, 3), "int32", (0.0001, 0)),
        ("int32", (1e-5, 0), "int8", (0.2, -5)),
    ],
)
def test_quantize_int16(tmp_path, in_dtype, qin, out_dtype, qout):
    b = ModelBuilder()
    x = b.input("x", [2, 3, 37], in_dtype, *(qin or (None, None)))
    y = b.op("QUANTIZE", [x], out=b.tensor("y", [2, 3, 37], out_dtype, *qout))
    b.output(y)
    check(tmp_path, b, float_range=(-1.2, 1.2))


@pytest.mark.parametrize("scale", [1 / 32768, 0.0123, 7.5])
def test_dequantize_int16(tmp_path, scale):
    b = ModelBuilder()
    x = b.input("x", [4, 29], "int16", scale, 0)
    y = b.op("DEQUANTIZE", [x], out=b.tensor("y", [4, 29], "float32"))
    b.output(y)
    check(tmp_path, b)


def test_reshape_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 8], "int16", 0.001, 0)
    shape = b.const("shape", np.array([3, 16], np.int32), "int32")
    r = b.op("RESHAPE", [x, shape], out=b.tensor("r", [3, 16], "int16", 0.001, 0), options={"newShape": [3, 16]})
    y = b.op("QUANTIZE", [r], out=b.tensor("y", [3, 16], "int8", 0.2, 1))
    b.output(y)
    check(tmp_path, b)


# --- refusals ------------------------------------------------------------------------------------------------


def test_reject_asymmetric_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [8], "int16", 0.001, 0)
    shape = b.const("shape", np.array([2, 4], np.int32), "int32")
    r = b.op("RESHAPE", [x, shape], out=b.tensor("r", [2, 4], "int16", 0.001, 0), options={"newShape": [2, 4]})
    y = b.op("MUL", [r, r], out=b.tensor("y", [2, 4], "int16", 0.002, 5))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "int16" in str(err) and "'y'" in str(err)


def test_reject_quantize_float_to_int32(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    y = b.op("QUANTIZE", [x], out=b.tensor("y", [4], "int32", 0.001, 0))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "QUANTIZE" in str(err) and "float32 -> int16" in str(err)


# --- data movement: PAD, STRIDED_SLICE, CONCATENATION, TRANSPOSE ---------------------------------------------


@pytest.mark.parametrize(
    "kind,pads,value",
    [
        ("PAD", [[0, 0], [1, 2], [3, 0], [0, 0]], None),
        ("PAD", [[0, 0], [0, 0], [2, 5], [0, 1]], None),
        ("PADV2", [[1, 0], [0, 1], [0, 0], [2, 2]], I16_MIN),
        ("PADV2", [[0, 0], [2, 2], [1, 1], [0, 0]], 1234),
    ],
)
def test_pad_int16(tmp_path, kind, pads, value):
    shape = [1, 3, 5, 3]
    out_shape = [d + a + z for d, (a, z) in zip(shape, pads)]
    b = ModelBuilder()
    x = b.input("x", shape, "int16", 0.0009, 0)
    ins = [x, b.const("pads", np.array(pads, np.int32), "int32")]
    if value is not None:
        ins.append(b.const("value", np.array([value], np.int16), "int16", 0.0009, 0))
    y = b.op(kind, ins, out=b.tensor("y", out_shape, "int16", 0.0009, 0))
    b.output(y)
    check(tmp_path, b)


def test_strided_slice_concatenation_transpose_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 10, 4], "int16", 0.0005, 0)
    ss = b.op(
        "STRIDED_SLICE",
        [
            x,
            b.const("begin", np.array([0, 1, -8, 0], np.int32), "int32"),
            b.const("end", np.array([1, 6, 10, 3], np.int32), "int32"),
            b.const("strides", np.array([1, 2, 3, 1], np.int32), "int32"),
        ],
        out=b.tensor("s", [1, 3, 3, 3], "int16", 0.0005, 0),
        options=_slice_options(),
    )
    c = b.op("CONCATENATION", [ss, ss], out=b.tensor("c", [1, 3, 3, 6], "int16", 0.0005, 0), options={"axis": -1})
    t = b.op(
        "TRANSPOSE",
        [c, b.const("perm", np.array([0, 3, 1, 2], np.int32), "int32")],
        out=b.tensor("t", [1, 6, 3, 3], "int16", 0.0005, 0),
    )
    b.output(t)
    check(tmp_path, b)


def _slice_options():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    return fb.StridedSliceOptionsT()


def test_reject_int16_concat_with_different_scales(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [2, 3], "int16", 0.001, 0)
    c = b.input("c", [2, 3], "int16", 0.002, 0)
    y = b.op("CONCATENATION", [a, c], out=b.tensor("y", [4, 3], "int16", 0.001, 0), options={"axis": 0})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "'c'" in str(err) and "int16" in str(err)


# --- element-wise arithmetic: ADD, SUB, MUL, LEAKY_RELU ---------------------------------------------------------


@pytest.mark.parametrize(
    "kind,sa,sb,qa,qb,qo,act",
    [
        ("ADD", [1, 2, 5, 8], [1, 2, 5, 8], 0.0006, 0.0008, 0.001, "NONE"),
        ("ADD", [1, 2, 5, 8], [8], 0.0006, 1e-5, 0.0005, "RELU"),
        ("ADD", [2, 3, 7], [2, 1, 7], 3e-5, 0.4, 0.5, "RELU6"),
        ("ADD", [3, 17], [3, 17], 1 / 32768, 1 / 32768, 1 / 16384, "RELU_N1_TO_1"),
        ("ADD", [4, 9], [4, 9], 1e-7, 2.0, 1.5, "NONE"),
        ("SUB", [1, 2, 12, 8], [8], 0.00097, 8.7e-6, 0.00059, "NONE"),
        ("SUB", [1, 3, 4, 5], [1, 3, 4, 5], 0.02, 0.0003, 0.01, "RELU"),
        ("SUB", [2, 1, 4, 1], [1, 3, 1, 6], 0.001, 0.003, 0.0002, "NONE"),
        ("MUL", [1, 2, 5, 8], [1, 2, 5, 8], 0.0006, 0.0008, 1e-6, "NONE"),
        ("MUL", [1, 2, 5, 8], [8], 0.01, 0.02, 0.5, "RELU"),
        ("MUL", [3, 11], [3, 11], 1 / 32768, 1 / 32768, 1 / 32768, "RELU_N1_TO_1"),
        ("MUL", [2, 3, 7], [1, 3, 1], 0.003, 0.004, 1e-5, "RELU6"),
    ],
)
def test_binary_int16(tmp_path, kind, sa, sb, qa, qb, qo, act):
    from tflite_builder import ACT

    b = ModelBuilder()
    x1 = b.input("a", sa, "int16", qa, 0)
    x2 = b.input("b", sb, "int16", qb, 0)
    out_shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
    y = b.op(
        kind, [x1, x2], out=b.tensor("y", out_shape, "int16", qo, 0), options={"fusedActivationFunction": ACT[act]}
    )
    b.output(y)
    check(tmp_path, b)


@pytest.mark.parametrize(
    "dtype,qin,qout,alpha",
    [
        ("int16", (0.0017488234, 0), (0.0017488234, 0), 0.3),
        ("int16", (0.0058368747, 0), (0.0046422905, 0), 0.3),
        ("int16", (1 / 32768, 0), (3e-6, 0), 0.01),
        ("int16", (0.001, 0), (0.002, 0), 1.7),
        ("int16", (0.001, 0), (0.0005, 0), -0.4),
        ("int16", (0.001, 0), (0.001, 0), 0.0),
        ("int8", (0.05, -3), (0.04, 10), 0.2),
        ("int8", (0.1, 127), (0.02, -128), -1.3),
        ("int8", (0.1, 127), (0.02, -128), -0.4),
        ("int16", (0.001, 0), (0.0005, 0), -1.3),
        ("int8", (0.1, 0), (0.1, 0), -0.4),
    ],
)
def test_leaky_relu_quantized(tmp_path, dtype, qin, qout, alpha):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    opts = fb.LeakyReluOptionsT()
    opts.alpha = alpha
    b = ModelBuilder()
    x = b.input("x", [2, 5, 33], dtype, *qin)
    y = b.op("LEAKY_RELU", [x], out=b.tensor("y", [2, 5, 33], dtype, *qout), options=opts)
    b.output(y)
    check(tmp_path, b)


# --- pooling --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind,padding,filt,stride,act",
    [
        ("MAX_POOL_2D", 0, (3, 3), (2, 2), "NONE"),
        ("MAX_POOL_2D", 1, (2, 3), (1, 2), "RELU"),
        ("AVERAGE_POOL_2D", 0, (3, 3), (2, 2), "NONE"),
        ("AVERAGE_POOL_2D", 1, (4, 2), (1, 1), "RELU6"),
        ("AVERAGE_POOL_2D", 0, (7, 9), (1, 1), "NONE"),
    ],
)
def test_pool_int16(tmp_path, kind, padding, filt, stride, act):
    from tflite_builder import ACT

    shape = [2, 7, 9, 3]

    def out_size(n, f, s):
        return (n + s - 1) // s if padding == 0 else (n - f + s) // s

    out_shape = [2, out_size(7, filt[0], stride[0]), out_size(9, filt[1], stride[1]), 3]
    b = ModelBuilder()
    x = b.input("x", shape, "int16", 0.0007, 0)
    y = b.op(
        kind,
        [x],
        out=b.tensor("y", out_shape, "int16", 0.0007, 0),
        options={
            "padding": padding,
            "filterHeight": filt[0],
            "filterWidth": filt[1],
            "strideH": stride[0],
            "strideW": stride[1],
            "fusedActivationFunction": ACT[act],
        },
    )
    b.output(y)
    check(tmp_path, b)


# --- SOFTMAX ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,in_scale,beta",
    [
        ([2, 10], 1 / 1024, 1.0),
        ([1, 3, 33], 0.0004, 1.0),
        ([4, 7], 0.01, 0.5),
        ([3, 5], 2e-5, 2.0),
        ([1, 300], 1 / 4096, 1.0),
    ],
)
def test_softmax_int16(tmp_path, shape, in_scale, beta):
    b = ModelBuilder()
    x = b.input("x", shape, "int16", in_scale, 0)
    y = b.op("SOFTMAX", [x], out=b.tensor("y", shape, "int16", 1 / 32768, 0), options={"beta": beta})
    b.output(y)
    check(tmp_path, b)


# --- MEAN -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,axes,keep,qi,qo",
    [
        ([1, 5, 7, 3], [1, 2], True, 0.0005, 0.0002),
        ([2, 4, 4, 8], [2, 1], False, 0.001, 0.001),
        ([1, 3, 6, 4], [2], False, 1 / 32768, 3e-6),
        ([1, 3, 3, 16], [-1], True, 0.02, 0.0125),
        ([1, 4, 4, 4], [0, 1, 2, 3], False, 0.005, 1e-4),
        ([2, 10, 3], [1], False, 0.3, 0.5),
    ],
)
def test_mean_int16(tmp_path, shape, axes, keep, qi, qo):
    rank = len(shape)
    red = {a % rank for a in axes}
    out_shape = [1 if d in red else n for d, n in enumerate(shape)]
    if not keep:
        out_shape = [n for d, n in enumerate(out_shape) if d not in red]
    b = ModelBuilder()
    x = b.input("x", shape, "int16", qi, 0)
    y = b.op(
        "MEAN",
        [x, b.const("axes", np.array(axes, np.int32), "int32")],
        out=b.tensor("y", out_shape, "int16", qo, 0),
        options={"keepDims": keep},
    )
    b.output(y)
    check(tmp_path, b)


# --- the reference-data paths with int16 I/O ------------------------------------------------------------------


def test_testgen_and_refdata_with_int16_io(tmp_path):
    """`aotc testgen` / `refdata` on a model with int16 inputs and outputs: the self-checking test builds with the
    host compiler and passes, and the reference arrays are int16_t."""
    from compiler.commands.refdata_cmd import render_refdata
    from compiler.commands.testgen_cmd import render_test
    from compiler.driver import compile_model, write_files
    from compiler.hostbuild import build_executable, run_executable
    from compiler.reference import reference_cases

    b = ModelBuilder()
    x1 = b.input("a", [2, 9], "int16", 0.0006, 0)
    x2 = b.input("b", [2, 9], "int16", 0.0009, 0)
    s = b.op("ADD", [x1, x2], out=b.tensor("s", [2, 9], "int16", 0.001, 0))
    q = b.op("QUANTIZE", [s], out=b.tensor("q", [2, 9], "int8", 0.01, 3))
    b.output(s, q)
    path = b.save(tmp_path / "io16.tflite")
    ref = reference_cases(str(path), 4, 7)
    assert ref.cases[0][0].dtype == np.int16 and ref.expected[0][0].dtype == np.int16
    files = dict(compile_model(str(path), "io16", "host").files)
    files["io16_test.c"] = render_test("io16", ref)
    files.update(render_refdata("io16", ref))
    assert "const int16_t io16_ref_a[4 * 18]" in files["io16_ref.c"]
    write_files(str(tmp_path), files)
    exe = str(tmp_path / "io16_test")
    build_executable(
        [str(tmp_path / f) for f in ("io16.c", "io16_weights.c", "io16_test.c", "io16_ref.c")], [str(tmp_path)], exe
    )
    proc = run_executable(exe, [])
    assert proc.returncode == 0 and "4 of 4 cases match" in proc.stdout, proc.stdout + proc.stderr


def test_int16_chain(tmp_path):
    """Seven int16 operators in a row (buffers reused in place between element-wise ones), float32 out."""
    b = ModelBuilder()
    x = b.input("x", [1, 4, 6, 8], "int16", 0.001, 0)
    p = b.op(
        "PAD",
        [x, b.const("pads", np.array([[0, 0], [1, 1], [0, 2], [0, 0]], np.int32), "int32")],
        out=b.tensor("p", [1, 6, 8, 8], "int16", 0.001, 0),
    )
    m = b.op("MUL", [p, p], out=b.tensor("m", [1, 6, 8, 8], "int16", 0.0005, 0))
    lr = b.op("LEAKY_RELU", [m], out=b.tensor("l", [1, 6, 8, 8], "int16", 0.0004, 0))
    a = b.op(
        "AVERAGE_POOL_2D",
        [lr],
        out=b.tensor("a", [1, 3, 4, 8], "int16", 0.0004, 0),
        options={"padding": 0, "filterHeight": 2, "filterWidth": 2, "strideH": 2, "strideW": 2},
    )
    s = b.op("SOFTMAX", [a], out=b.tensor("s", [1, 3, 4, 8], "int16", 1 / 32768, 0), options={"beta": 1.0})
    me = b.op(
        "MEAN",
        [s, b.const("ax", np.array([1, 2], np.int32), "int32")],
        out=b.tensor("me", [1, 8], "int16", 1 / 32768, 0),
        options={"keepDims": False},
    )
    y = b.op("DEQUANTIZE", [me], out=b.tensor("y", [1, 8], "float32"))
    b.output(y)
    check(tmp_path, b)


@pytest.mark.parametrize("shape,qin,beta", [([2, 10], (0.1, -3), 1.0), ([1, 3, 33], (0.02, 127), 0.7)])
def test_softmax_int8_to_int16(tmp_path, shape, qin, beta):
    b = ModelBuilder()
    x = b.input("x", shape, "int8", *qin)
    y = b.op("SOFTMAX", [x], out=b.tensor("y", shape, "int16", 1 / 65536, -32768), options={"beta": beta})
    b.output(y)
    check(tmp_path, b)


@pytest.mark.parametrize("shape,qin,beta", [([2, 10], (0.1, -3), 1.0), ([1, 3, 33], (0.02, 127), 0.7)])
def test_softmax_int8_to_int8_shares_the_body(tmp_path, shape, qin, beta):
    b = ModelBuilder()
    x = b.input("x", shape, "int8", *qin)
    y = b.op("SOFTMAX", [x], out=b.tensor("y", shape, "int8", 1 / 256, -128), options={"beta": beta})
    b.output(y)
    check(tmp_path, b)


@pytest.mark.parametrize(
    "kind,qin,qout",
    [
        ("RELU", (0.001, 0), (0.001, 0)),
        ("RELU", (0.001, 0), (0.0003, 0)),
        ("RELU", (1 / 32768, 0), (0.01, 0)),
        ("RELU6", (0.0003, 0), (0.0003, 0)),
        ("RELU6", (1 / 4096, 0), (1 / 4096, 0)),
    ],
)
def test_relu_int16(tmp_path, kind, qin, qout):
    b = ModelBuilder()
    x = b.input("x", [3, 41], "int16", *qin)
    y = b.op(kind, [x], out=b.tensor("y", [3, 41], "int16", *qout))
    b.output(y)
    check(tmp_path, b)


def test_add_int16_constant_operand(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 3, 4, 6], "int16", 0.0008, 0)
    c = b.const("c", np.array([I16_MIN, I16_MAX, -1, 0, 1, 12345], np.int16), "int16", 2e-5, 0)
    y = b.op("ADD", [x, c], out=b.tensor("y", [1, 3, 4, 6], "int16", 0.001, 0))
    z = b.op("MUL", [y, c], out=b.tensor("z", [1, 3, 4, 6], "int16", 1e-5, 0))
    b.output(z)
    check(tmp_path, b)


# Input scales: TFLite's power-of-two fast cases (2^-12 for both, 2^-11 for TANH), powers of two just outside them
# (general multiplier path), ordinary scales, the smallest and the largest the 15-bit multiplier takes.
SIGMOID_S16_SCALES = [
    2.0**-12,
    2.0**-11,
    2.0**-10,
    2.0**-13,
    2.0**-15,
    1 / 3000,
    0.00123,
    3.7e-3,
    1e-6,
    1e-9,
    0.25,
    1.0,
    2.6,
]


@pytest.mark.parametrize("kind", ["LOGISTIC", "TANH"])
@pytest.mark.parametrize("scale", SIGMOID_S16_SCALES)
def test_sigmoid_tanh_int16_every_input(tmp_path, kind, scale):
    """Every int16 value through int16 LOGISTIC / TANH, bit-exact with TFLite Micro."""
    b = ModelBuilder()
    x = b.input("x", [256, 256], "int16", scale, 0)
    y = b.op(kind, [x], out=b.tensor("y", [256, 256], "int16", 1 / 32768, 0))
    b.output(y)
    every = np.arange(I16_MIN, I16_MAX + 1, dtype=np.int16).reshape(256, 256)
    check_against_tflm(tmp_path, b, cases=[[every]])


@pytest.mark.parametrize(
    "kind,qin,qout,says",
    [
        ("LOGISTIC", (1 / 4096, 0), (1 / 256, 0), "2^-15"),
        ("TANH", (1 / 4096, 0), (1 / 16384, 0), "2^-15"),
        ("LOGISTIC", (4.0, 0), (1 / 32768, 0), "input scales up to"),
        ("TANH", (100.0, 0), (1 / 32768, 0), "input scales up to"),
    ],
)
def test_reject_int16_sigmoid_tanh_quantization(tmp_path, kind, qin, qout, says):
    b = ModelBuilder()
    x = b.input("x", [2, 8], "int16", *qin)
    y = b.op(kind, [x], out=b.tensor("y", [2, 8], "int16", *qout))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and kind in str(err) and says in str(err), err


@pytest.mark.parametrize("kind,qout", [("SOFTMAX", (1 / 256, 0)), ("HARD_SWISH", (0.001, 0))])
def test_reject_unsupported_int16_activations(tmp_path, kind, qout):
    b = ModelBuilder()
    x = b.input("x", [2, 8], "int16", 1 / 4096, 0)
    y = b.op(kind, [x], out=b.tensor("y", [2, 8], "int16", *qout))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and kind in str(err) and "'y'" in str(err)


def test_reject_per_channel_int16_model_input(tmp_path):
    b = ModelBuilder()
    x = b.tensor("x", [1, 2, 2, 2], "int16", [0.001, 0.002], [0, 0], quantized_dimension=3)
    b._inputs.append(x.index)
    y = b.op("DEQUANTIZE", [x], out=b.tensor("y", [1, 2, 2, 2], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "'x'" in str(err) and "per-channel" in str(err)
