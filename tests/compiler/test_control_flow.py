"""IF and WHILE with constant-shape subgraphs, compiled to plain C control flow (if/else, a for loop) and compared
with the TFLite Micro interpreter bit for bit (integer outputs equal; float outputs within the harness tolerance,
here exactly the same arithmetic). Inputs pick both branches and loop counts from zero up; a WHILE body holds an IF
(nesting), and the refusals name what is wrong."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402


def _o(name, **fields):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    o = getattr(fb, name)()
    for k, v in fields.items():
        setattr(o, k, v)
    return o


Q = {"float32": (None, None), "int8": (0.05, -3), "int16": (0.002, 0), "int32": (None, None)}


def if_model(dtype="float32", shape=(2, 3), then_kind="ADD", else_kind="SUB", q_out=None, two_ops=False):
    """y = then_kind(a, b) if c else else_kind(a, b); with two_ops the then branch also gives a second output
    (the same op applied twice) and the else branch gives b for it (a pass-through)."""
    q = Q[dtype]
    qo = q_out or q

    def build():
        b = ModelBuilder()
        c = b.input("c", [1], "bool")
        x = b.input("a", shape, dtype, *q)
        y = b.input("b", shape, dtype, *q)
        branches = []
        for kind in (then_kind, else_kind):
            sg = b.subgraph()
            sx, sy = sg.input("a", shape, dtype, *q), sg.input("b", shape, dtype, *q)
            r = sg.op(kind, [sx, sy], out=sg.tensor("r", shape, dtype, *qo))
            outs = [r]
            if two_ops:
                outs.append(sg.op(kind, [r, sy], out=sg.tensor("r2", shape, dtype, *qo)) if kind == then_kind else sy)
            sg.output(*outs)
            branches.append(sg)
        outs = [b.tensor("y", shape, dtype, *qo)] + ([b.tensor("y2", shape, dtype, *qo)] if two_ops else [])
        b.op(
            "IF",
            [c, x, y],
            out=outs,
            options=_o("IfOptionsT", thenSubgraphIndex=branches[0].index, elseSubgraphIndex=branches[1].index),
        )
        b.output(*outs)
        return b

    return build


def while_model(nested_if=False):
    """i = 0; acc = a; while (i < n) { acc = acc + x (or, with nested_if, acc - x when i > 2); i = i + 1 };
    outputs acc and i. n and x are model inputs carried as loop values."""

    def build():
        b = ModelBuilder()
        n = b.input("n", [1], "int32")
        x = b.input("x", [4], "float32")
        a = b.input("a", [4], "float32")
        i0 = b.const("i0", np.zeros([1], np.int32), "int32")
        spec = [("i", [1], "int32"), ("n", [1], "int32"), ("x", [4], "float32"), ("acc", [4], "float32")]
        cond = b.subgraph()
        ci = [cond.input(nm, s, d) for nm, s, d in spec]
        cond.output(cond.op("LESS", [ci[0], ci[1]], out=cond.tensor("go", [1], "bool")))
        body = b.subgraph()
        bi = [body.input(nm, s, d) for nm, s, d in spec]
        one = body.const("one", np.ones([1], np.int32), "int32")
        i1 = body.op("ADD", [bi[0], one], out=body.tensor("i1", [1], "int32"))
        if nested_if:
            two = body.const("two", np.full([1], 2, np.int32), "int32")
            c = body.op("GREATER", [bi[0], two], out=body.tensor("late", [1], "bool"))
            branches = []
            for kind in ("SUB", "ADD"):
                sg = b.subgraph()
                sa, sx = sg.input("acc", [4], "float32"), sg.input("x", [4], "float32")
                sg.output(sg.op(kind, [sa, sx], out=sg.tensor("r", [4], "float32")))
                branches.append(sg)
            acc1 = body.tensor("acc1", [4], "float32")
            body.op(
                "IF",
                [c, bi[3], bi[2]],
                out=[acc1],
                options=_o("IfOptionsT", thenSubgraphIndex=branches[0].index, elseSubgraphIndex=branches[1].index),
            )
        else:
            acc1 = body.op("ADD", [bi[3], bi[2]], out=body.tensor("acc1", [4], "float32"))
        body.output(i1, bi[1], bi[2], acc1)
        outs = [b.tensor(f"{nm}_out", s, d) for nm, s, d in spec]
        b.op(
            "WHILE",
            [i0, n, x, a],
            out=outs,
            options=_o("WhileOptionsT", condSubgraphIndex=cond.index, bodySubgraphIndex=body.index),
        )
        b.output(outs[3], outs[0])
        return b

    return build


def _if_cases(dtype, shape, count=8, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        if dtype == "float32":
            a, c = rng.uniform(-1, 1, shape).astype(np.float32), rng.uniform(-1, 1, shape).astype(np.float32)
        else:
            info = np.iinfo(dtype)
            a = rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
            c = rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
        out.append([np.array([k % 3 != 1]), a, c])  # both branches, the then branch twice in a row too
    return out


@needs_tflm
@pytest.mark.parametrize(
    "dtype,then_kind,else_kind,q_out",
    [
        ("float32", "ADD", "SUB", None),
        ("int8", "ADD", "SUB", (0.1, 5)),
        ("int16", "MUL", "ADD", (0.004, 0)),
        ("int32", "SUB", "MUL", None),
    ],
)
def test_if(tmp_path, dtype, then_kind, else_kind, q_out):
    check_against_tflm(tmp_path, if_model(dtype, (2, 3), then_kind, else_kind, q_out)(), cases=_if_cases(dtype, (2, 3)))


@needs_tflm
def test_if_two_outputs_and_pass_through(tmp_path):
    check_against_tflm(tmp_path, if_model("float32", (3, 4), two_ops=True)(), cases=_if_cases("float32", (3, 4)))


def _while_cases(seed=0):
    rng = np.random.default_rng(seed)
    return [
        [np.array([n], np.int32), rng.uniform(-1, 1, 4).astype(np.float32), rng.uniform(-1, 1, 4).astype(np.float32)]
        for n in (0, 1, 3, 7, -5, 12)
    ]


@needs_tflm
def test_while(tmp_path):
    """Zero, one and several rounds (and a negative bound: none)."""
    check_against_tflm(tmp_path, while_model()(), cases=_while_cases())


@needs_tflm
def test_while_with_if_in_body(tmp_path):
    check_against_tflm(tmp_path, while_model(nested_if=True)(), cases=_while_cases(1))


def _compile(tmp_path, b):
    path = str(tmp_path / "model.tflite")
    b.save(path)
    return compile_model(path, "m", "host")


def test_generated_code_is_plain_control_flow(tmp_path):
    c = _compile(tmp_path, while_model(nested_if=True)()).files["m.c"]
    assert "for (;;) { /* WHILE */" in c and "break;" in c and "} else { /* IF: else branch */" in c


def test_branch_shape_mismatch_refused(tmp_path):
    b = if_model("float32", (2, 3))()
    b._subgraphs[1]._tensors[0].shape = [2, 4]  # the else branch takes a larger first operand
    with pytest.raises(UnsupportedError, match="constant types and shapes"):
        _compile(tmp_path, b)


def test_subgraph_index_out_of_range(tmp_path):
    b = ModelBuilder()
    c = b.input("c", [1], "bool")
    x = b.input("a", [2], "float32")
    y = b.tensor("y", [2], "float32")
    b.op("IF", [c, x], out=[y], options=_o("IfOptionsT", thenSubgraphIndex=4, elseSubgraphIndex=1))
    b.output(y)
    b.subgraph()
    with pytest.raises(CompileError, match="runs subgraph 4"):
        _compile(tmp_path, b)


def test_same_subgraph_twice_refused(tmp_path):
    b = if_model("float32", (2, 3))()
    b._ops[0].builtinOptions.elseSubgraphIndex = 1
    with pytest.raises(UnsupportedError, match="each may be run by one operator"):
        _compile(tmp_path, b)


def _if_with_constant_weights(dtype):
    """IF(c, x, W, bias): the then branch is FULLY_CONNECTED(x, W, bias), the else branch passes x through a RELU;
    W and bias are constants of the main graph passed in as operands (as the TFLite converter writes openWakeWord's
    classifiers), so inside the branch the weights are a subgraph input."""
    q = {"float32": (None, None), "int8": (0.05, 2)}[dtype]
    wq = {"float32": (None, None), "int8": (0.02, 0)}[dtype]
    bias_dtype, bq = ("float32", (None, None)) if dtype == "float32" else ("int32", (0.05 * 0.02, 0))
    rng = np.random.default_rng(21)
    if dtype == "float32":
        w, bias = rng.uniform(-1, 1, (4, 4)).astype(np.float32), rng.uniform(-1, 1, (4,)).astype(np.float32)
    else:
        w, bias = rng.integers(-127, 127, (4, 4)).astype(np.int8), rng.integers(-500, 500, (4,)).astype(np.int32)
    b = ModelBuilder()
    c = b.input("c", [1], "bool")
    x = b.input("x", [1, 4], dtype, *q)
    wt = b.const("w", w, dtype, *wq)
    bt = b.const("bias", bias, bias_dtype, *bq)
    branches = []
    for then in (True, False):
        sg = b.subgraph()
        sx, sw = sg.input("x", [1, 4], dtype, *q), sg.input("w", [4, 4], dtype, *wq)
        sb = sg.input("bias", [4], bias_dtype, *bq)
        if then:
            r = sg.op("FULLY_CONNECTED", [sx, sw, sb], out=sg.tensor("r", [1, 4], dtype, *q))
        else:
            r = sg.op("RELU", [sx], out=sg.tensor("r", [1, 4], dtype, *q))
        sg.output(r)
        branches.append(sg)
    y = b.tensor("y", [1, 4], dtype, *q)
    b.op(
        "IF",
        [c, x, wt, bt],
        out=[y],
        options=_o("IfOptionsT", thenSubgraphIndex=branches[0].index, elseSubgraphIndex=branches[1].index),
    )
    b.output(y)
    return b


@needs_tflm
@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_if_with_constant_weights_passed_into_the_branch(tmp_path, dtype):
    """The constant operands become the branch's constants (TFLite Micro copies them in; a FULLY_CONNECTED needs its
    weights constant); only the input is copied at run time. Bit-exact with TFLite Micro on both branches."""
    cases = [c[:2] for c in _if_cases(dtype, (1, 4), count=6, seed=3)]
    check_against_tflm(tmp_path, _if_with_constant_weights(dtype), cases=cases)
