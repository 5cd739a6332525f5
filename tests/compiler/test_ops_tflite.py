"""Per-op bit-exactness tests against the TFLite Micro interpreter.

Every test builds a tiny .tflite model with tflite_builder (no TensorFlow
needed), compiles it to C, builds and runs it on the host (run_model) and
compares with the TFLite Micro reference interpreter on seeded random inputs
(plus every int8 value for element-wise int8 ops): int8 outputs must be
identical, float32 outputs within rtol 1e-5 / atol 1e-6.  The last section
checks that unsupported variants fail with one clear CompileError.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ACT, ModelBuilder  # noqa: E402

from compiler.driver import compile_model, load_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402
from compiler.oracle import tflm_available, tflm_outputs  # noqa: E402
from compiler.commands.run_cmd import run_model  # noqa: E402

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")

NUM_RANDOM_CASES = 6


# --- harness ---------------------------------------------------------------------------


def _random_case(graph, rng, float_range):
    """float_range: (lo, hi) for every float input, or {input name: (lo, hi)}."""
    case = []
    for t in graph.inputs:
        if t.dtype == "int8":
            case.append(rng.integers(-128, 128, size=t.shape).astype(np.int8))
        else:
            lo, hi = float_range[t.name] if isinstance(float_range, dict) else float_range
            case.append(rng.uniform(lo, hi, size=t.shape).astype(np.float32))
    return case


def _all_int8_case(graph):
    """Every int8 value, tiled over each int8 input (exhaustive for unary ops)."""
    case = []
    for t in graph.inputs:
        n = t.num_elements
        if t.dtype != "int8":
            return None
        case.append(np.resize(np.arange(-128, 128, dtype=np.int8), n).reshape(t.shape))
    return case


def check_against_tflm(tmp_path, builder, seed=0, float_range=(-1.0, 1.0), cases=None):
    """Compile + run the model and TFLM on the same inputs; assert they agree."""
    path = builder.save(tmp_path / "model.tflite")
    graph = load_model(path)
    rng = np.random.default_rng(seed)
    if cases is None:
        cases = [_random_case(graph, rng, float_range) for _ in range(NUM_RANDOM_CASES)]
        exhaustive = _all_int8_case(graph)
        if exhaustive is not None:
            cases.append(exhaustive)
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, **{t.name: np.stack([c[i] for c in cases])
                        for i, t in enumerate(graph.inputs)})
    got = run_model(str(path), str(in_npz), None)
    want = tflm_outputs(str(path), cases, len(graph.outputs))
    for k, t in enumerate(graph.outputs):
        for n, case_want in enumerate(want):
            g, w = got[t.name][n], np.asarray(case_want[k]).reshape(t.shape)
            if t.dtype == "int8":
                diff = np.flatnonzero(g.astype(np.int32) != w.astype(np.int32))
                assert diff.size == 0, (
                    f"case {n}, output '{t.name}': {diff.size} of {g.size} int8 values differ; "
                    f"first at flat index {diff[0]}: got {g.reshape(-1)[diff[0]]}, "
                    f"TFLM {w.reshape(-1)[diff[0]]}")
            else:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6,
                                           err_msg=f"case {n}, output '{t.name}'")
    return graph


def _qname(q) -> str:
    if q is None or q[0] is None:
        return "f32"
    return f"s{q[0]:.6g}_z{q[1]}".replace(".", "p").replace("-", "m")


def multi_unary_model(kind, shape, dtype, variants, out_dtype=None):
    """One model with an independent `kind` op per (input quant, output quant) variant.

    Batching variants keeps the number of C builds (the slow part) down; each
    output is named after its variant so a mismatch says which one failed.
    """
    b = ModelBuilder()
    outs = []
    for i, (qin, qout) in enumerate(variants):
        x = b.input(f"x{i}", shape, dtype, *(qin or (None, None)))
        name = f"y{i}_{_qname(qin)}_to_{_qname(qout)}"
        outs.append(b.op(kind, [x], out=b.tensor(name, shape, out_dtype or dtype,
                                                 *(qout or (None, None)))))
    b.output(*outs)
    return b


def unary_model(kind, shape, dtype, in_q=(None, None), out_q=(None, None), options=None,
                out_dtype=None):
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *in_q)
    y = b.op(kind, [x], out=b.tensor("y", shape, out_dtype or dtype, *out_q), options=options)
    b.output(y)
    return b


# --- MUL -------------------------------------------------------------------------------

MUL_INT8 = [
    # (name, shape a, shape b, shape out, qa, qb, qout, activation)
    ("same_shape", [1, 4, 4, 3], [1, 4, 4, 3], [1, 4, 4, 3],
     (0.05, -3), (0.02, 7), (0.01, 2), "NONE"),
    ("relu", [1, 4, 4, 3], [1, 4, 4, 3], [1, 4, 4, 3],
     (0.05, -3), (0.02, 7), (0.01, -20), "RELU"),
    ("relu6_broadcast_channel", [1, 5, 3, 4], [4], [1, 5, 3, 4],
     (0.1, 10), (0.05, -128), (0.05, -100), "RELU6"),
    ("relu_n1_to_1_two_sided_broadcast", [1, 4, 1, 3], [1, 1, 5, 1], [1, 4, 5, 3],
     (0.02, 0), (0.03, 5), (1.0 / 128, 0), "RELU_N1_TO_1"),
    ("multiplier_above_one", [2, 3, 5], [2, 3, 5], [2, 3, 5],
     (0.5, -1), (0.25, 3), (0.01, 0), "NONE"),
    ("extreme_zero_points", [3, 7], [7], [3, 7],
     (0.003, 127), (0.004, -128), (0.0001, -128), "NONE"),
]


@needs_tflm
@pytest.mark.parametrize("name,sa,sb,so,qa,qb,qo,act", MUL_INT8, ids=[c[0] for c in MUL_INT8])
def test_mul_int8(tmp_path, name, sa, sb, so, qa, qb, qo, act):
    b = ModelBuilder()
    a = b.input("a", sa, "int8", *qa)
    bb = b.input("b", sb, "int8", *qb)
    y = b.op("MUL", [a, bb], out=b.tensor("y", so, "int8", *qo),
             options={"fusedActivationFunction": ACT[act]})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=sum(map(ord, name)))


@needs_tflm
def test_mul_int8_constant_operand(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "int8", 0.04, -5)
    c = b.const("c", np.array([[-128, -1, 0, 127]], np.int8), "int8", 0.01, 3)
    y = b.op("MUL", [c, x], out=b.tensor("y", [1, 6, 6, 4], "int8", 0.02, 1))
    b.output(y)
    check_against_tflm(tmp_path, b, seed=5)


@needs_tflm
@pytest.mark.parametrize("act", ["NONE", "RELU6"])
def test_mul_float(tmp_path, act):
    b = ModelBuilder()
    a = b.input("a", [1, 3, 4, 5], "float32")
    bb = b.input("b", [1, 3, 1, 5], "float32")
    y = b.op("MUL", [a, bb], out=b.tensor("y", [1, 3, 4, 5], "float32"),
             options={"fusedActivationFunction": ACT[act]})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=11, float_range=(-4.0, 4.0))


# --- QUANTIZE / DEQUANTIZE -------------------------------------------------------------

QUANTIZE_F32_Q = [(0.1, 0), (0.0039215686, -128), (0.5, 3), (1e-3, 100), (0.02, -128)]


@needs_tflm
def test_quantize_float_to_int8(tmp_path):
    variants = [(None, q) for q in QUANTIZE_F32_Q]
    b = multi_unary_model("QUANTIZE", [2, 9, 11], "float32", variants, out_dtype="int8")
    # Wide enough to hit both saturation limits of every output quantization.
    ranges = {f"x{i}": (-200 * s, 200 * s) for i, (s, _) in enumerate(QUANTIZE_F32_Q)}
    check_against_tflm(tmp_path, b, seed=1, float_range=ranges)
    # Exact halves of the scale: rounding must go half away from zero.
    rng = np.random.default_rng(2)
    ties = [[((rng.integers(-300, 300, size=[2, 9, 11]) + 0.5) * np.float32(s))
             .astype(np.float32) for s, _ in QUANTIZE_F32_Q] for _ in range(2)]
    check_against_tflm(tmp_path, b, cases=ties)


QUANTIZE_S8_Q = [((0.05, -3), (0.1, 10)), ((0.1, 10), (0.013, -7)), ((0.02, 5), (0.02, -60)),
                 ((0.5, 127), (0.0625, -128)), ((0.003, -128), (0.003, -128))]


@needs_tflm
def test_quantize_int8_requantize(tmp_path):
    check_against_tflm(tmp_path, multi_unary_model("QUANTIZE", [4, 64], "int8", QUANTIZE_S8_Q))


@needs_tflm
def test_dequantize(tmp_path):
    variants = [((0.05, -3), None), ((1.0 / 256, -128), None), ((3.7, 127), None)]
    check_against_tflm(tmp_path, multi_unary_model("DEQUANTIZE", [1, 16, 16], "int8", variants,
                                                   out_dtype="float32"))


# --- CONCATENATION ---------------------------------------------------------------------

CONCAT = [
    # (name, input shapes, axis, dtype)
    ("channels", [[1, 4, 4, 3], [1, 4, 4, 5]], 3, "int8"),
    ("height_three_inputs", [[1, 2, 3, 2], [1, 4, 3, 2], [1, 1, 3, 2]], 1, "int8"),
    ("negative_axis", [[2, 6, 3], [2, 6, 1]], -1, "float32"),
    ("batch_axis", [[1, 5], [3, 5]], 0, "float32"),
    ("width_float", [[1, 3, 2, 4], [1, 3, 5, 4]], 2, "float32"),
]


@needs_tflm
@pytest.mark.parametrize("name,shapes,axis,dtype", CONCAT, ids=[c[0] for c in CONCAT])
def test_concatenation(tmp_path, name, shapes, axis, dtype):
    q = (0.07, -9) if dtype == "int8" else (None, None)
    out_shape = list(shapes[0])
    ax = axis % len(out_shape)
    out_shape[ax] = sum(s[ax] for s in shapes)
    b = ModelBuilder()
    ins = [b.input(f"x{i}", s, dtype, *q) for i, s in enumerate(shapes)]
    y = b.op("CONCATENATION", ins, out=b.tensor("y", out_shape, dtype, *q),
             options={"axis": axis})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=len(name))


@needs_tflm
def test_concatenation_with_constant_and_intermediate(tmp_path):
    """A constant input and an intermediate produced by another op."""
    b = ModelBuilder()
    x = b.input("x", [1, 3, 3, 2], "int8", 0.1, 4)
    h = b.op("RELU6", [x], out=b.tensor("h", [1, 3, 3, 2], "int8", 0.1, 4))
    c = b.const("c", np.arange(-9, 9, dtype=np.int8).reshape(1, 3, 3, 2), "int8", 0.1, 4)
    y = b.op("CONCATENATION", [h, c, x], out=b.tensor("y", [1, 3, 3, 6], "int8", 0.1, 4),
             options={"axis": 3})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=3)


# --- PAD / PADV2 -----------------------------------------------------------------------

PAD = [
    # (name, kind, input shape, paddings, dtype, constant value)
    ("spatial_int8", "PAD", [1, 4, 5, 3], [[0, 0], [1, 2], [2, 1], [0, 0]], "int8", None),
    ("all_dims_int8", "PAD", [2, 3, 2, 2], [[1, 0], [0, 2], [1, 1], [2, 1]], "int8", None),
    ("rank2_float", "PAD", [3, 4], [[1, 1], [0, 3]], "float32", None),
    ("spatial_float", "PAD", [1, 3, 3, 2], [[0, 0], [1, 1], [1, 1], [0, 0]], "float32", None),
    ("v2_float", "PADV2", [1, 3, 4, 2], [[0, 0], [2, 0], [0, 1], [0, 0]], "float32", 1.5),
    ("v2_int8", "PADV2", [1, 2, 4, 3], [[0, 0], [1, 1], [0, 2], [1, 0]], "int8", -77),
]


@needs_tflm
@pytest.mark.parametrize("name,kind,shape,pads,dtype,value", PAD, ids=[c[0] for c in PAD])
def test_pad(tmp_path, name, kind, shape, pads, dtype, value):
    q = (0.03, -11) if dtype == "int8" else (None, None)
    out_shape = [d + a + c for d, (a, c) in zip(shape, pads)]
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *q)
    p = b.const("paddings", np.array(pads, np.int32), "int32")
    ins = [x, p]
    if value is not None:
        ins.append(b.const("value", np.array([value]), dtype, *q))
    y = b.op(kind, ins, out=b.tensor("y", out_shape, dtype, *q))
    b.output(y)
    check_against_tflm(tmp_path, b, seed=len(name))


# --- MEAN ------------------------------------------------------------------------------

MEAN = [
    # (name, input shape, axes, keep_dims, dtype, q in, q out)
    ("spatial_keep_requant", [1, 5, 7, 3], [1, 2], True, "int8", (0.05, -3), (0.02, 10)),
    ("spatial_drop_same_quant", [2, 4, 4, 8], [2, 1], False, "int8", (0.1, 5), (0.1, 5)),
    ("width_only", [1, 3, 6, 4], [2], False, "int8", (0.05, -128), (0.03, 127)),
    ("channels_negative_axis", [1, 3, 3, 16], [-1], True, "int8", (0.2, 0), (0.0125, -20)),
    ("all_axes", [1, 4, 4, 4], [0, 1, 2, 3], False, "int8", (0.05, 10), (0.001, 0)),
    ("big_window", [1, 32, 32, 2], [1, 2], True, "int8", (0.02, -1), (0.004, 3)),
    ("rank3", [2, 10, 3], [1], False, "int8", (0.3, 7), (0.05, -7)),
    ("spatial_float", [1, 5, 7, 3], [1, 2], True, "float32", None, None),
    ("channels_float", [2, 3, 5], [0, 2], False, "float32", None, None),
]


@needs_tflm
@pytest.mark.parametrize("name,shape,axes,keep,dtype,qi,qo", MEAN, ids=[c[0] for c in MEAN])
def test_mean(tmp_path, name, shape, axes, keep, dtype, qi, qo):
    rank = len(shape)
    red = {a % rank for a in axes}
    out_shape = [1 if d in red else n for d, n in enumerate(shape)]
    if not keep:
        out_shape = [n for d, n in enumerate(out_shape) if d not in red]
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *(qi or (None, None)))
    ax = b.const("axes", np.array(axes, np.int32), "int32")
    y = b.op("MEAN", [x, ax], out=b.tensor("y", out_shape, dtype, *(qo or (None, None))),
             options={"keepDims": keep})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=len(name))


# --- LOGISTIC / TANH -------------------------------------------------------------------

SIGMOID_INPUT_Q = [(0.1, 0), (0.0625, -20), (1.0 / 256, -128), (0.5, 100), (0.02, 17),
                   (1.0, 0), (0.0001, 3)]


@needs_tflm
def test_logistic_int8(tmp_path):
    variants = [(q, (1.0 / 256, -128)) for q in SIGMOID_INPUT_Q]
    check_against_tflm(tmp_path, multi_unary_model("LOGISTIC", [2, 256], "int8", variants))


@needs_tflm
def test_tanh_int8(tmp_path):
    variants = [(q, (1.0 / 128, 0)) for q in SIGMOID_INPUT_Q]
    check_against_tflm(tmp_path, multi_unary_model("TANH", [2, 256], "int8", variants))


@needs_tflm
@pytest.mark.parametrize("kind", ["LOGISTIC", "TANH"])
def test_logistic_tanh_float(tmp_path, kind):
    check_against_tflm(tmp_path, unary_model(kind, [1, 8, 8, 4], "float32"),
                       float_range=(-20.0, 20.0))


# --- RELU / RELU6 ----------------------------------------------------------------------

RELU_Q = [((0.05, -3), (0.05, -3)), ((0.05, -3), (0.025, -128)), ((0.1, 60), (0.03, -100)),
          ((0.02, -128), (0.5, 0)), ((0.01, 127), (0.01, -128))]
RELU6_Q = [(0.05, -3), (6.0 / 255, -128), (0.01, 0), (0.1, 127), (0.5, -100)]


@needs_tflm
def test_relu_int8(tmp_path):
    check_against_tflm(tmp_path, multi_unary_model("RELU", [4, 64], "int8", RELU_Q))


@needs_tflm
def test_relu6_int8(tmp_path):
    variants = [(q, q) for q in RELU6_Q]
    check_against_tflm(tmp_path, multi_unary_model("RELU6", [4, 64], "int8", variants))


@needs_tflm
@pytest.mark.parametrize("kind", ["RELU", "RELU6"])
def test_relu_float(tmp_path, kind):
    check_against_tflm(tmp_path, unary_model(kind, [2, 5, 7], "float32"),
                       float_range=(-10.0, 10.0))


# --- HARD_SWISH ------------------------------------------------------------------------

HARD_SWISH_Q = [
    ((0.05, -3), (0.03, -100)),      # reluish exponent > 0 (left shifts)
    ((6.0 / 255, 0), (0.0235, -10)),
    ((0.002, 10), (0.001, -128)),    # reluish exponent < 0 (right shift)
    ((0.2, 127), (0.1, -128)),
    ((0.1, -128), (0.09, 90)),
    ((2.0, 0), (0.05, 0)),           # large input scale: saturating left shifts
    ((0.02, 0), (0.00016, 0)),       # output exponent 0: no output shift at all
    ((0.001, 5), (0.3, -7)),         # output exponent -15: the largest supported shift
]


@needs_tflm
def test_hard_swish_int8(tmp_path):
    check_against_tflm(tmp_path, multi_unary_model("HARD_SWISH", [3, 256], "int8", HARD_SWISH_Q))


@needs_tflm
def test_hard_swish_float(tmp_path):
    check_against_tflm(tmp_path, unary_model("HARD_SWISH", [1, 6, 6, 8], "float32"),
                       float_range=(-6.0, 6.0))


# --- a small chain of the new ops ------------------------------------------------------


@needs_tflm
def test_chain_float_in_float_out(tmp_path):
    """QUANTIZE -> PAD -> MUL -> HARD_SWISH -> MEAN -> LOGISTIC -> DEQUANTIZE."""
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "float32")
    q = b.op("QUANTIZE", [x], out=b.tensor("q", [1, 6, 6, 4], "int8", 1.0 / 128, 0))
    p = b.op("PAD", [q, b.const("pads", np.array([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32),
                                "int32")],
             out=b.tensor("p", [1, 8, 8, 4], "int8", 1.0 / 128, 0))
    c = b.const("gain", np.array([100, -50, 127, 3], np.int8), "int8", 0.02, 0)
    m = b.op("MUL", [p, c], out=b.tensor("m", [1, 8, 8, 4], "int8", 0.03, -5))
    h = b.op("HARD_SWISH", [m], out=b.tensor("h", [1, 8, 8, 4], "int8", 0.02, -110))
    r = b.op("MEAN", [h, b.const("axes", np.array([1, 2], np.int32), "int32")],
             out=b.tensor("r", [1, 4], "int8", 0.01, -128), options={"keepDims": False})
    s = b.op("LOGISTIC", [r], out=b.tensor("s", [1, 4], "int8", 1.0 / 256, -128))
    y = b.op("DEQUANTIZE", [s], out=b.tensor("y", [1, 4], "float32"))
    b.output(y)
    check_against_tflm(tmp_path, b, seed=21)


# --- unsupported variants fail with one clear CompileError ----------------------------


def _compile_error(tmp_path, builder) -> CompileError:
    path = builder.save(tmp_path / "bad.tflite")
    with pytest.raises(CompileError) as info:
        compile_model(str(path), "bad", "host")
    msg = str(info.value)
    assert "\n" not in msg and msg.endswith("."), msg
    return info.value


def test_reject_int16_quantize(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    y = b.op("QUANTIZE", [x], out=b.tensor("y", [4], "int16", 0.001, 0))
    q = b.op("DEQUANTIZE", [y], out=b.tensor("z", [4], "float32"))
    b.output(q)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError)
    assert "QUANTIZE" in str(err) and "'y'" in str(err) and "int16" in str(err)


def test_reject_int16_activations(tmp_path):
    err = _compile_error(tmp_path, unary_model("TANH", [8], "int16", (1 / 4096, 0), (1 / 32768, 0)))
    assert isinstance(err, UnsupportedError) and "int16" in str(err)


def test_reject_non_constant_paddings(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 2, 2, 1], "float32")
    p = b.input("pads", [4, 2], "int32")
    y = b.op("PAD", [x, p], out=b.tensor("y", [1, 4, 4, 1], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "'pads'" in str(err)
    # The PAD lowering itself names the op and operand if it ever sees one.
    from compiler.passes.select_lowering import select_lowerings
    graph = load_model(str(tmp_path / "bad.tflite"))
    select_lowerings(graph)
    with pytest.raises(UnsupportedError, match=r"Operator 0 \(PAD\): the paddings operand must "
                                               r"be a constant tensor \('pads'"):
        graph.ops[0].lowering.check(graph.ops[0])


def test_reject_concat_with_different_quantization(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [1, 2, 2, 3], "int8", 0.05, -3)
    c = b.input("c", [1, 2, 2, 1], "int8", 0.1, 5)
    y = b.op("CONCATENATION", [a, c], out=b.tensor("y", [1, 2, 2, 4], "int8", 0.05, -3),
             options={"axis": 3})
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError)
    assert "CONCATENATION" in str(err) and "'c'" in str(err)


def test_reject_relu6_with_different_quantization(tmp_path):
    err = _compile_error(tmp_path, unary_model("RELU6", [8], "int8", (0.1, 0), (0.05, -128)))
    assert isinstance(err, UnsupportedError) and "RELU6" in str(err) and "'y'" in str(err)


@pytest.mark.parametrize("kind,qout", [("LOGISTIC", (1 / 128, 0)), ("TANH", (1 / 256, -128))])
def test_reject_wrong_fixed_output_quantization(tmp_path, kind, qout):
    err = _compile_error(tmp_path, unary_model(kind, [8], "int8", (0.1, 0), qout))
    assert isinstance(err, UnsupportedError) and kind in str(err) and "'y'" in str(err)


@pytest.mark.parametrize("qin,qout", [((0.001, 0), (1.0, 0)), ((1.0, 0), (0.001, 0))],
                         ids=["output_shift_too_large", "output_multiplier_above_one"])
def test_reject_hard_swish_scales_out_of_range(tmp_path, qin, qout):
    err = _compile_error(tmp_path, unary_model("HARD_SWISH", [8], "int8", qin, qout))
    assert isinstance(err, UnsupportedError) and "HARD_SWISH" in str(err) and "'y'" in str(err)


def test_reject_mean_rank5(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 2, 2, 2, 2], "float32")
    y = b.op("MEAN", [x, b.const("axes", np.array([1], np.int32), "int32")],
             out=b.tensor("y", [1, 2, 2, 2], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "MEAN" in str(err) and "rank 5" in str(err)


def test_reject_negative_paddings(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 1], "float32")
    p = b.const("pads", np.array([[0, 0], [-1, 0], [0, 0], [0, 0]], np.int32), "int32")
    y = b.op("PAD", [x, p], out=b.tensor("y", [1, 3, 4, 1], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "PAD" in str(err)


def test_reject_dequantize_of_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    w = b.const("w16", np.ones(4, np.float16), "float16")
    d = b.op("DEQUANTIZE", [w], out=b.tensor("w", [4], "float32"))
    y = b.op("MUL", [x, d], out=b.tensor("y", [4], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "DEQUANTIZE" in str(err) and "'w16'" in str(err)


def test_reject_mul_rank5(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [1, 2, 2, 2, 2], "float32")
    c = b.input("c", [1, 2, 2, 2, 2], "float32")
    y = b.op("MUL", [a, c], out=b.tensor("y", [1, 2, 2, 2, 2], "float32"))
    b.output(y)
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "MUL" in str(err)


def test_reject_softmax_with_degenerate_input_scale(tmp_path):
    # beta * input scale below 2^-26 has no int8 multiplier (TFLite Micro refuses it too); a randomly initialised
    # network whose logits never vary produces such a scale.
    b = ModelBuilder()
    x = b.input("logits", [1, 4], "int8", 1e-9, 0)
    b.output(b.op("SOFTMAX", [x], out=b.tensor("probs", [1, 4], "int8", 1.0 / 256, -128), options={"beta": 1.0}))
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "SOFTMAX" in str(err) and "'logits'" in str(err)
