"""Per-op bit-exactness tests against the TFLite Micro interpreter.

Every test builds a tiny .tflite model with tflite_builder (no TensorFlow
needed), compiles it to C, builds and runs it on the host (execute_on_host) and
compares with the TFLite Micro reference interpreter on seeded random inputs
(plus every int8 value for element-wise int8 ops): integer outputs must be
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
from compiler.commands.run_cmd import execute_on_host  # noqa: E402

needs_tflm = pytest.mark.skipif(not tflm_available(), reason="tflite_micro is not installed")

NUM_RANDOM_CASES = 6


# --- harness ---------------------------------------------------------------------------


def _random_case(graph, rng, float_range):
    """float_range: (lo, hi) for every float input, or {input name: (lo, hi)}."""
    case = []
    for t in graph.inputs:
        if t.dtype == "int8":
            case.append(rng.integers(-128, 128, size=t.shape).astype(np.int8))
        elif t.dtype == "uint8":
            case.append(rng.integers(0, 256, size=t.shape).astype(np.uint8))
        elif t.dtype in ("int16", "int32"):
            # The whole range of the type (quantized int32 only appears at QUANTIZE boundaries).
            info = np.iinfo(t.dtype)
            case.append(rng.integers(info.min, info.max, size=t.shape, endpoint=True).astype(t.dtype))
        elif t.dtype == "bool":
            case.append(rng.integers(0, 2, size=t.shape).astype(np.bool_))
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


class TflmCheck:
    """One comparison with TFLite Micro, in two steps so the host runs of many can be batched (compiler/host_batch.py):
    prepare_tflm_check compiles the model and draws its cases; finish(got) takes the host outputs per case and asserts
    they agree with the interpreter's."""

    def __init__(self, path, graph, compiled, cases, fix_reference):
        self.path, self.graph, self.compiled, self.cases, self.fix_reference = (
            path,
            graph,
            compiled,
            cases,
            fix_reference,
        )

    def finish(self, per_case):
        """per_case: per case, the host's output arrays in model output order (execute_on_host's result)."""
        graph = self.graph
        want = tflm_outputs(str(self.path), self.cases, len(graph.outputs))
        if self.fix_reference is not None:
            want = [self.fix_reference([np.asarray(w) for w in case_want]) for case_want in want]
        for k, t in enumerate(graph.outputs):
            for n, case_want in enumerate(want):
                g, w = per_case[n][k], np.asarray(case_want[k]).reshape(t.shape)
                if t.dtype in ("int8", "uint8", "int16", "int32"):
                    diff = np.flatnonzero(g.astype(np.int64) != w.astype(np.int64))
                    assert diff.size == 0, (
                        f"case {n}, output '{t.name}': {diff.size} of {g.size} {t.dtype} values differ; "
                        f"first at flat index {diff[0]}: got {g.reshape(-1)[diff[0]]}, "
                        f"TFLM {w.reshape(-1)[diff[0]]}"
                    )
                else:
                    np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"case {n}, output '{t.name}'")
        return graph


def prepare_tflm_check(
    tmp_path,
    builder,
    seed=0,
    float_range=(-1.0, 1.0),
    cases=None,
    target="host",
    extra_cases=(),
    fix_reference=None,
    prefix="aotmodel",
):
    """The first step of check_against_tflm (see there): the model saved, compiled with PREFIX, and its cases."""
    path = builder.save(tmp_path / "model.tflite")
    graph = load_model(path)
    rng = np.random.default_rng(seed)
    if cases is None:
        cases = [_random_case(graph, rng, float_range) for _ in range(NUM_RANDOM_CASES)]
        exhaustive = _all_int8_case(graph)
        if exhaustive is not None:
            cases.append(exhaustive)
    cases = list(cases) + [list(c) for c in extra_cases]
    compiled = compile_model(str(path), prefix, target)
    return TflmCheck(path, graph, compiled, cases, fix_reference)


def check_against_tflm(
    tmp_path, builder, seed=0, float_range=(-1.0, 1.0), cases=None, target="host", extra_cases=(), fix_reference=None
):
    """Compile + run the model and TFLM on the same inputs; assert they agree.  `target` picks the kernels
    (the build is always for this machine: DSP kernels run their portable emulations); extra_cases are run
    after the given or generated ones. fix_reference(outputs) -> outputs, when given, sets the values TFLite Micro
    leaves undefined (it reads uninitialized memory there) to the ones we define, before the comparison."""
    check = prepare_tflm_check(tmp_path, builder, seed, float_range, cases, target, extra_cases, fix_reference)
    return check.finish(execute_on_host(check.compiled, check.cases))


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
        outs.append(b.op(kind, [x], out=b.tensor(name, shape, out_dtype or dtype, *(qout or (None, None)))))
    b.output(*outs)
    return b


def unary_model(kind, shape, dtype, in_q=(None, None), out_q=(None, None), options=None, out_dtype=None):
    b = ModelBuilder()
    x = b.input("x", shape, dtype, *in_q)
    y = b.op(kind, [x], out=b.tensor("y", shape, out_dtype or dtype, *out_q), options=options)
    b.output(y)
    return b


# --- ADD / SUB (int8) -----------------------------------------------------------------------

ADD_INT8 = [
    # (name, kind, shape a, shape b, qa, qb, qout, activation, kernel: the same-shape one, the row form of a
    # broadcast (ops/common/checks.rows_form) or the generic one)
    ("same_shape", "ADD", [1, 5, 4, 6], [1, 5, 4, 6], (0.05, -3), (0.02, 7), (0.06, 2), "NONE", "_elementwise"),
    ("relu", "ADD", [1, 5, 4, 6], [1, 5, 4, 6], (0.05, -128), (0.11, 4), (0.05, -128), "RELU", "_elementwise"),
    ("relu6_equal_scales", "ADD", [2, 3, 7], [2, 3, 7], (0.04, 10), (0.04, -20), (0.05, -100), "RELU6", "_elementwise"),
    ("relu_n1_to_1", "ADD", [3, 17], [3, 17], (0.01, 0), (0.03, 5), (1.0 / 128, 0), "RELU_N1_TO_1", "_elementwise"),
    ("extreme_zero_points", "ADD", [4, 9], [4, 9], (0.003, 127), (0.5, -128), (0.2, -128), "NONE", "_elementwise"),
    ("broadcast_channel", "ADD", [1, 4, 3, 5], [5], (0.05, -3), (0.02, 7), (0.06, 2), "RELU", "_rows"),
    # The second input's scale is too small for a Q0.31 multiplier (it flushes to 0): the generic kernel.
    ("negligible_input", "ADD", [2, 8], [2, 8], (0.5, 3), (1e-12, 0), (0.4, -1), "NONE", ""),
    ("sub_same_shape", "SUB", [1, 3, 5, 4], [1, 3, 5, 4], (0.05, -3), (0.02, 7), (0.06, 2), "NONE", "_elementwise"),
    ("sub_relu_second_larger", "SUB", [6, 11], [6, 11], (0.01, -128), (0.07, 30), (0.05, -128), "RELU", "_elementwise"),
    ("sub_broadcast", "SUB", [1, 3, 4, 2], [1, 1, 4, 1], (0.05, -3), (0.02, 7), (0.06, 2), "NONE", ""),
]


@needs_tflm
@pytest.mark.parametrize("name,kind,sa,sb,qa,qb,qo,act,kernel", ADD_INT8, ids=[c[0] for c in ADD_INT8])
def test_add_sub_int8(tmp_path, name, kind, sa, sb, qa, qb, qo, act, kernel):
    b = ModelBuilder()
    a = b.input("a", sa, "int8", *qa)
    bb = b.input("b", sb, "int8", *qb)
    y = b.op(kind, [a, bb], out=b.tensor("y", sa, "int8", *qo), options={"fusedActivationFunction": ACT[act]})
    b.output(y)
    path = b.save(tmp_path / "model.tflite")
    assert compile_model(path, "m", "host").manifest["ops"][0]["kernel"] == f"aot_{kind.lower()}_s8{kernel}"
    check_against_tflm(tmp_path, b, seed=sum(map(ord, name)))


@needs_tflm
@pytest.mark.parametrize(
    "kind,qa,qb,qo,act",
    [
        ("ADD", (0.05, -3), (0.02, 7), (0.06, 2), "NONE"),
        ("ADD", (0.0393936, -128), (0.104195, 4), (0.0509457, -128), "RELU"),  # pretrainedResnet's first ADD
        ("ADD", (0.3, 127), (0.3, -128), (0.001, 0), "RELU6"),  # equal scales, saturating output
        ("SUB", (0.01, 100), (0.09, -100), (0.05, 0), "NONE"),
    ],
)
def test_add_sub_int8_every_input_pair(tmp_path, kind, qa, qb, qo, act):
    """The short arithmetic on all 65,536 pairs of int8 values at once."""
    b = ModelBuilder()
    a = b.input("a", [256, 256], "int8", *qa)
    bb = b.input("b", [256, 256], "int8", *qb)
    b.output(
        b.op(kind, [a, bb], out=b.tensor("y", [256, 256], "int8", *qo), options={"fusedActivationFunction": ACT[act]})
    )
    path = b.save(tmp_path / "model.tflite")
    assert compile_model(path, "m", "host").manifest["ops"][0]["kernel"].endswith("_elementwise")
    grid = np.arange(-128, 128, dtype=np.int8)
    check_against_tflm(
        tmp_path, b, cases=[[np.repeat(grid, 256).reshape(256, 256), np.tile(grid, 256).reshape(256, 256)]]
    )


# --- residual ADD fused into a convolution (passes/fuse_residual_add.py) --------------------------------------


def conv_layer(
    b, rng, name, inp, in_shape, oc, kind="CONV_2D", k=3, per_channel=True, act=0, out_q=(0.08, -5), stride=1
):
    """A CONV_2D (or DEPTHWISE_CONV_2D) with random int8 weights, SAME padding; returns (tensor, shape)."""
    n, h, w, ic = in_shape
    fshape = (oc, k, k, ic) if kind == "CONV_2D" else (1, k, k, oc)
    ws = rng.uniform(0.002, 0.01, size=oc) if per_channel else np.float32(0.005)
    wt = b.const(
        name + "_w",
        rng.integers(-127, 128, size=fshape).astype(np.int8),
        "int8",
        ws,
        0,
        quantized_dimension=0 if kind == "CONV_2D" else 3,
    )
    in_scale = 0.05
    bias = b.const(
        name + "_b",
        rng.integers(-3000, 3000, size=oc).astype(np.int32),
        "int32",
        np.float32(in_scale) * np.asarray(ws, np.float32),
        0,
        quantized_dimension=0,
    )
    oh, ow = -(-h // stride), -(-w // stride)
    out = b.tensor(name, [n, oh, ow, oc], "int8", *out_q)
    opts = {"padding": 0, "strideH": stride, "strideW": stride, "fusedActivationFunction": act}
    if kind == "DEPTHWISE_CONV_2D":
        opts["depthMultiplier"] = oc // ic
    b.op(kind, [inp, wt, bias], out, opts)
    return out, (n, oh, ow, oc)


def residual_model(
    shape=(1, 6, 5, 8),
    oc=8,
    kind="CONV_2D",
    per_channel=True,
    conv_act=1,
    add_act=0,
    conv_first=True,
    residual="conv",
    k=3,
    tail=True,
    seed=0,
    mid=None,
):
    """r = conv_r(x) (the residual; a model input when residual == "input"), y = conv_y(conv_m(r)), or
    conv_y(r) when residual == "direct"; s = ADD(y, r) (ADD(r, y) unless conv_first); then a 1x1 conv tail so that
    s is a workspace tensor (or s is the model output).  kind is conv_y's kind (DEPTHWISE_CONV_2D with one input
    channel runs on the DSP cores' GEMM kernel); mid is conv_m's channel count (default: oc, or 1 before a
    depthwise conv_y)."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", list(shape), "int8", 0.05, -3)
    rs = (shape[0], shape[1], shape[2], oc)
    if residual == "input":
        r = b.input("r", list(rs), "int8", 0.07, 9)
        src, src_shape = x, shape
    else:
        r, _ = conv_layer(b, rng, "r", x, shape, oc, per_channel=per_channel, act=1, out_q=(0.06, -128))
        src, src_shape = r, rs
    if residual != "direct" and residual != "input":
        if mid is None:
            mid = 1 if kind == "DEPTHWISE_CONV_2D" else oc
        src, src_shape = conv_layer(b, rng, "m", r, rs, mid, act=1, out_q=(0.05, -128))
    y, _ = conv_layer(
        b, rng, "y", src, src_shape, oc, kind=kind, k=k, per_channel=per_channel, act=conv_act, out_q=(0.1, 3)
    )
    s = b.op(
        "ADD",
        [y, r] if conv_first else [r, y],
        out=b.tensor("s", list(rs), "int8", 0.09, -7),
        options={"fusedActivationFunction": add_act},
    )
    if tail:
        s, _ = conv_layer(b, rng, "t", s, rs, 4, k=1, out_q=(0.1, 0))
    b.output(s)
    return b


def fusion(path, target="host"):
    """(index of the conv the first ADD is fused into or None, that ADD's manifest entry, {tensor name: workspace
    offset or None}, the manifest's ops); the plan must never overlap two live tensors."""
    compiled = compile_model(str(path), "m", target)
    ops = compiled.manifest["ops"]
    add = next(op for op in ops if op["kind"] == "ADD")
    graph, plan = compiled.graph, compiled.plan
    assert plan.overlapping_live_pairs() == []
    offsets = {t.name: plan.tensor_offset.get(t.index) for t in graph.tensors}
    return add["fused_into"], add, offsets, ops


RESIDUAL_CASES = [
    # name, residual_model kwargs, fused, residual overwritten in place
    ("per_channel_relu", dict(conv_act=1, add_act=0), True, True),
    ("per_tensor_add_relu", dict(per_channel=False, conv_act=0, add_act=1), True, True),
    ("conv_second_input_relu6", dict(conv_first=False, add_act=3), True, True),
    ("add_relu_n1_to_1_1x1", dict(k=1, add_act=2, conv_act=3), True, True),
    ("residual_is_model_input", dict(residual="input"), True, False),
    ("conv_reads_the_residual", dict(residual="direct"), True, False),  # a window of r: not in place
    ("add_output_is_model_output", dict(tail=False), True, False),
]


@needs_tflm
@pytest.mark.parametrize("name,kw,fused,inplace", RESIDUAL_CASES, ids=[c[0] for c in RESIDUAL_CASES])
def test_residual_add_fused_into_conv(tmp_path, name, kw, fused, inplace):
    b = residual_model(seed=len(name), **kw)
    path = b.save(tmp_path / "model.tflite")
    fused_into, add, off, ops = fusion(path)
    assert (fused_into is not None) == fused
    if fused:
        conv = ops[fused_into]
        assert conv["kind"] == "CONV_2D" and conv["kernel"] == "aot_conv2d_s8" and conv["fused_ops"] == [add["index"]]
        assert add["kernel"] is None and off["y"] is None  # the convolution's own output is never stored
        assert (off["s"] is not None and off["s"] == off.get("r")) == inplace
    check_against_tflm(tmp_path, b, seed=len(name), extra_cases=extreme_cases(load_model(path)))


def extreme_cases(graph):
    """Every int8 input all -128, then all 127: saturated convolutions feeding the fused ADD."""
    return [[np.full(t.shape, v, np.int8) for t in graph.inputs] for v in (-128, 127)]


@needs_tflm
def test_residual_add_fused_but_not_in_place_when_the_residual_is_read_later(tmp_path):
    # s = ADD(y, r) is fused into y's conv, but r is read again by the second ADD: s needs its own buffer.  The
    # second ADD is not fused either: its conv (the fused one) already carries an ADD.
    rng = np.random.default_rng(7)
    b = ModelBuilder()
    x = b.input("x", [1, 5, 6, 8], "int8", 0.05, -3)
    r, rs = conv_layer(b, rng, "r", x, (1, 5, 6, 8), 8, act=1, out_q=(0.06, -128))
    m, _ = conv_layer(b, rng, "m", r, rs, 8, act=1, out_q=(0.05, -128))
    y, _ = conv_layer(b, rng, "y", m, rs, 8, out_q=(0.1, 3))
    s = b.op("ADD", [y, r], out=b.tensor("s", list(rs), "int8", 0.09, -7))
    s2 = b.op("ADD", [s, r], out=b.tensor("s2", list(rs), "int8", 0.1, -2))
    y2, _ = conv_layer(b, rng, "y2", s, rs, 8, k=1, out_q=(0.08, 1))
    t = b.op("ADD", [y2, s2], out=b.tensor("t", list(rs), "int8", 0.12, 0), options={"fusedActivationFunction": 1})
    b.output(conv_layer(b, rng, "tail", t, rs, 4, k=1)[0])
    path = b.save(tmp_path / "model.tflite")
    compiled = compile_model(str(path), "m", "host")
    ops, plan = compiled.manifest["ops"], compiled.plan
    assert [op["fused_into"] for op in ops if op["kind"] == "ADD"] == [2, None, 5]
    off = {t.name: plan.tensor_offset.get(t.index) for t in compiled.graph.tensors}
    assert off["s"] != off["r"] and off["y"] is None and off["y2"] is None
    assert off["t"] == off["s2"]  # the last fused conv writes in place over its residual s2
    check_against_tflm(tmp_path, b, seed=7, extra_cases=extreme_cases(load_model(path)))


def test_residual_add_not_fused_in_float(tmp_path):
    rng = np.random.default_rng(8)
    b = ModelBuilder()
    x = b.input("x", [1, 4, 4, 3], "float32")
    w = b.const("w", rng.standard_normal((3, 3, 3, 3)).astype(np.float32), "float32")
    y = b.tensor("y", [1, 4, 4, 3], "float32")
    b.op("CONV_2D", [x, w, None], y, {"padding": 0, "strideH": 1, "strideW": 1})
    b.output(b.op("ADD", [y, x], out=b.tensor("s", [1, 4, 4, 3], "float32")))
    path = b.save(tmp_path / "model.tflite")
    fused_into, add, _, _ = fusion(path)
    assert fused_into is None and add["kernel"] == "aot_add_f32"


def _conv_chain(seed):
    """x -> r = conv(x) -> y = conv(r), 5x5x4: (builder, r, y, shape of both)."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.input("x", [1, 5, 5, 4], "int8", 0.05, -3)
    r, rs = conv_layer(b, rng, "r", x, (1, 5, 5, 4), 4, act=1)
    y, _ = conv_layer(b, rng, "y", r, rs, 4)
    return b, r, y, rs


@needs_tflm
def test_residual_add_not_fused_when_conv_output_is_read_twice(tmp_path):
    b, r, y, rs = _conv_chain(3)
    s = b.op("ADD", [y, r], out=b.tensor("s", list(rs), "int8", 0.09, -7))
    s2 = b.op("ADD", [s, y], out=b.tensor("s2", list(rs), "int8", 0.1, 1))
    b.output(s2)
    path = b.save(tmp_path / "model.tflite")
    compiled = compile_model(str(path), "m", "host")
    adds = [op for op in compiled.manifest["ops"] if op["kind"] == "ADD"]
    assert [op["fused_into"] for op in adds] == [None, None]
    assert [op["kernel"] for op in adds] == ["aot_add_s8_elementwise"] * 2
    check_against_tflm(tmp_path, b, seed=3)


@needs_tflm
def test_residual_add_not_fused_when_conv_output_is_a_model_output(tmp_path):
    b, r, y, rs = _conv_chain(4)
    s = b.op("ADD", [r, y], out=b.tensor("s", list(rs), "int8", 0.09, -7))
    b.output(s, y)
    path = b.save(tmp_path / "model.tflite")
    assert fusion(path)[0] is None
    check_against_tflm(tmp_path, b, seed=4)


@needs_tflm
def test_residual_add_not_fused_with_broadcast(tmp_path):
    rng = np.random.default_rng(5)
    b = ModelBuilder()
    x = b.input("x", [1, 5, 5, 4], "int8", 0.05, -3)
    v = b.input("v", [1, 1, 1, 4], "int8", 0.03, 2)
    y, rs = conv_layer(b, rng, "y", x, (1, 5, 5, 4), 4)
    s = b.op("ADD", [y, v], out=b.tensor("s", list(rs), "int8", 0.09, -7))
    b.output(s)
    path = b.save(tmp_path / "model.tflite")
    fused_into, add, _, _ = fusion(path)
    # Not fused: the ADD runs on its own, in the row form of its per-channel broadcast.
    assert fused_into is None and add["kernel"] == "aot_add_s8_rows"
    check_against_tflm(tmp_path, b, seed=5)


@needs_tflm
def test_residual_add_fused_into_the_later_conv(tmp_path):
    # ADD(y1, y2) of two convolutions: it is fused into the one that runs last (op 2), y1 is its residual.
    rng = np.random.default_rng(6)
    b = ModelBuilder()
    x = b.input("x", [1, 4, 6, 8], "int8", 0.05, -3)
    h, hs = conv_layer(b, rng, "h", x, (1, 4, 6, 8), 8, act=1)
    y1, _ = conv_layer(b, rng, "y1", h, hs, 8, k=1)
    y2, _ = conv_layer(b, rng, "y2", h, hs, 8)
    s = b.op("ADD", [y2, y1], out=b.tensor("s", list(hs), "int8", 0.09, -7))
    t, _ = conv_layer(b, rng, "t", s, hs, 4, k=1)
    b.output(t)
    path = b.save(tmp_path / "model.tflite")
    fused_into, _, off, _ = fusion(path)
    assert fused_into == 2 and off["s"] == off["y1"] and off["y2"] is None
    check_against_tflm(tmp_path, b, seed=6)


# --- MUL -------------------------------------------------------------------------------

MUL_INT8 = [
    # (name, shape a, shape b, shape out, qa, qb, qout, activation)
    ("same_shape", [1, 4, 4, 3], [1, 4, 4, 3], [1, 4, 4, 3], (0.05, -3), (0.02, 7), (0.01, 2), "NONE"),
    ("relu", [1, 4, 4, 3], [1, 4, 4, 3], [1, 4, 4, 3], (0.05, -3), (0.02, 7), (0.01, -20), "RELU"),
    ("relu6_broadcast_channel", [1, 5, 3, 4], [4], [1, 5, 3, 4], (0.1, 10), (0.05, -128), (0.05, -100), "RELU6"),
    (
        "relu_n1_to_1_two_sided_broadcast",
        [1, 4, 1, 3],
        [1, 1, 5, 1],
        [1, 4, 5, 3],
        (0.02, 0),
        (0.03, 5),
        (1.0 / 128, 0),
        "RELU_N1_TO_1",
    ),
    ("multiplier_above_one", [2, 3, 5], [2, 3, 5], [2, 3, 5], (0.5, -1), (0.25, 3), (0.01, 0), "NONE"),
    ("extreme_zero_points", [3, 7], [7], [3, 7], (0.003, 127), (0.004, -128), (0.0001, -128), "NONE"),
]


@needs_tflm
@pytest.mark.parametrize("name,sa,sb,so,qa,qb,qo,act", MUL_INT8, ids=[c[0] for c in MUL_INT8])
def test_mul_int8(tmp_path, name, sa, sb, so, qa, qb, qo, act):
    b = ModelBuilder()
    a = b.input("a", sa, "int8", *qa)
    bb = b.input("b", sb, "int8", *qb)
    y = b.op("MUL", [a, bb], out=b.tensor("y", so, "int8", *qo), options={"fusedActivationFunction": ACT[act]})
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
    y = b.op("MUL", [a, bb], out=b.tensor("y", [1, 3, 4, 5], "float32"), options={"fusedActivationFunction": ACT[act]})
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
    ties = [
        [
            ((rng.integers(-300, 300, size=[2, 9, 11]) + 0.5) * np.float32(s)).astype(np.float32)
            for s, _ in QUANTIZE_F32_Q
        ]
        for _ in range(2)
    ]
    check_against_tflm(tmp_path, b, cases=ties)


QUANTIZE_S8_Q = [
    ((0.05, -3), (0.1, 10)),
    ((0.1, 10), (0.013, -7)),
    ((0.02, 5), (0.02, -60)),
    ((0.5, 127), (0.0625, -128)),
    ((0.003, -128), (0.003, -128)),
]


@needs_tflm
def test_quantize_int8_requantize(tmp_path):
    check_against_tflm(tmp_path, multi_unary_model("QUANTIZE", [4, 64], "int8", QUANTIZE_S8_Q))


@needs_tflm
def test_dequantize(tmp_path):
    variants = [((0.05, -3), None), ((1.0 / 256, -128), None), ((3.7, 127), None)]
    check_against_tflm(tmp_path, multi_unary_model("DEQUANTIZE", [1, 16, 16], "int8", variants, out_dtype="float32"))


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
    y = b.op("CONCATENATION", ins, out=b.tensor("y", out_shape, dtype, *q), options={"axis": axis})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=len(name))


@needs_tflm
def test_concatenation_with_constant_and_intermediate(tmp_path):
    """A constant input and an intermediate produced by another op."""
    b = ModelBuilder()
    x = b.input("x", [1, 3, 3, 2], "int8", 0.1, 4)
    h = b.op("RELU6", [x], out=b.tensor("h", [1, 3, 3, 2], "int8", 0.1, 4))
    c = b.const("c", np.arange(-9, 9, dtype=np.int8).reshape(1, 3, 3, 2), "int8", 0.1, 4)
    y = b.op("CONCATENATION", [h, c, x], out=b.tensor("y", [1, 3, 3, 6], "int8", 0.1, 4), options={"axis": 3})
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
    # aot_pad_* copy whole runs: the unpadded trailing dimensions merge into the innermost padded one.
    ("channels_only_int8", "PAD", [2, 3, 2, 5], [[0, 0], [0, 0], [0, 0], [3, 1]], "int8", None),
    ("batch_only_int8", "PAD", [2, 3, 2, 5], [[1, 2], [0, 0], [0, 0], [0, 0]], "int8", None),
    ("nothing_int8", "PAD", [1, 3, 2, 5], [[0, 0], [0, 0], [0, 0], [0, 0]], "int8", None),
    ("rows_only_float", "PAD", [1, 4, 3, 3], [[0, 0], [2, 1], [0, 0], [0, 0]], "float32", None),
    ("rank3_v2_float", "PADV2", [3, 2, 5], [[0, 1], [1, 0], [0, 0]], "float32", -2.25),
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
    y = b.op("MEAN", [x, ax], out=b.tensor("y", out_shape, dtype, *(qo or (None, None))), options={"keepDims": keep})
    b.output(y)
    check_against_tflm(tmp_path, b, seed=len(name))


# --- LOGISTIC / TANH -------------------------------------------------------------------

SIGMOID_INPUT_Q = [(0.1, 0), (0.0625, -20), (1.0 / 256, -128), (0.5, 100), (0.02, 17), (1.0, 0), (0.0001, 3)]


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
    check_against_tflm(tmp_path, unary_model(kind, [1, 8, 8, 4], "float32"), float_range=(-20.0, 20.0))


# --- RELU / RELU6 ----------------------------------------------------------------------

RELU_Q = [
    ((0.05, -3), (0.05, -3)),
    ((0.05, -3), (0.025, -128)),
    ((0.1, 60), (0.03, -100)),
    ((0.02, -128), (0.5, 0)),
    ((0.01, 127), (0.01, -128)),
]
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
    check_against_tflm(tmp_path, unary_model(kind, [2, 5, 7], "float32"), float_range=(-10.0, 10.0))


# --- HARD_SWISH ------------------------------------------------------------------------

HARD_SWISH_Q = [
    ((0.05, -3), (0.03, -100)),  # reluish exponent > 0 (left shifts)
    ((6.0 / 255, 0), (0.0235, -10)),
    ((0.002, 10), (0.001, -128)),  # reluish exponent < 0 (right shift)
    ((0.2, 127), (0.1, -128)),
    ((0.1, -128), (0.09, 90)),
    ((2.0, 0), (0.05, 0)),  # large input scale: saturating left shifts
    ((0.02, 0), (0.00016, 0)),  # output exponent 0: no output shift at all
    ((0.001, 5), (0.3, -7)),  # output exponent -15: the largest supported shift
]


@needs_tflm
def test_hard_swish_int8(tmp_path):
    check_against_tflm(tmp_path, multi_unary_model("HARD_SWISH", [3, 256], "int8", HARD_SWISH_Q))


@needs_tflm
def test_hard_swish_float(tmp_path):
    check_against_tflm(tmp_path, unary_model("HARD_SWISH", [1, 6, 6, 8], "float32"), float_range=(-6.0, 6.0))


# --- a small chain of the new ops ------------------------------------------------------


@needs_tflm
def test_chain_float_in_float_out(tmp_path):
    """QUANTIZE -> PAD -> MUL -> HARD_SWISH -> MEAN -> LOGISTIC -> DEQUANTIZE."""
    b = ModelBuilder()
    x = b.input("x", [1, 6, 6, 4], "float32")
    q = b.op("QUANTIZE", [x], out=b.tensor("q", [1, 6, 6, 4], "int8", 1.0 / 128, 0))
    p = b.op(
        "PAD",
        [q, b.const("pads", np.array([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32), "int32")],
        out=b.tensor("p", [1, 8, 8, 4], "int8", 1.0 / 128, 0),
    )
    c = b.const("gain", np.array([100, -50, 127, 3], np.int8), "int8", 0.02, 0)
    m = b.op("MUL", [p, c], out=b.tensor("m", [1, 8, 8, 4], "int8", 0.03, -5))
    h = b.op("HARD_SWISH", [m], out=b.tensor("h", [1, 8, 8, 4], "int8", 0.02, -110))
    r = b.op(
        "MEAN",
        [h, b.const("axes", np.array([1, 2], np.int32), "int32")],
        out=b.tensor("r", [1, 4], "int8", 0.01, -128),
        options={"keepDims": False},
    )
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


def test_reject_int16_activations(tmp_path):
    err = _compile_error(tmp_path, unary_model("HARD_SWISH", [8], "int16", (1 / 4096, 0), (1 / 32768, 0)))
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
    with pytest.raises(
        UnsupportedError,
        match=r"Operator 0 \(PAD\): the paddings operand must "
        r"be a constant tensor \('pads'",
    ):
        graph.ops[0].lowering.check(graph.ops[0])


def test_reject_concat_with_different_quantization(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [1, 2, 2, 3], "int8", 0.05, -3)
    c = b.input("c", [1, 2, 2, 1], "int8", 0.1, 5)
    y = b.op("CONCATENATION", [a, c], out=b.tensor("y", [1, 2, 2, 4], "int8", 0.05, -3), options={"axis": 3})
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


@pytest.mark.parametrize(
    "qin,qout",
    [((0.001, 0), (1.0, 0)), ((1.0, 0), (0.001, 0))],
    ids=["output_shift_too_large", "output_multiplier_above_one"],
)
def test_reject_hard_swish_scales_out_of_range(tmp_path, qin, qout):
    err = _compile_error(tmp_path, unary_model("HARD_SWISH", [8], "int8", qin, qout))
    assert isinstance(err, UnsupportedError) and "HARD_SWISH" in str(err) and "'y'" in str(err)


def test_reject_mean_rank5(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 2, 2, 2, 2], "float32")
    y = b.op("MEAN", [x, b.const("axes", np.array([1], np.int32), "int32")], out=b.tensor("y", [1, 2, 2, 2], "float32"))
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
