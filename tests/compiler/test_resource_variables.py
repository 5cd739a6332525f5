"""Resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) and CALL_ONCE, on generated multi-subgraph
models, compared with ONE TFLite Micro interpreter invoked once per case in order while the generated program resets
once and runs the same cases in order (check_against_tflm): the outputs depend on the history (each model
accumulates into a variable), so a variable lost, reset, misplaced or initialized twice shows as a mismatch. Every
model here runs at least 7 consecutive invocations, and each test checks the state matters (the same input twice
in a row gives different outputs)."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import check_against_tflm, needs_tflm  # noqa: E402

from compiler.commands.run_cmd import execute_on_host  # noqa: E402
from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402


def _o(name, **fields):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    o = getattr(fb, name)()
    for k, v in fields.items():
        setattr(o, k, v)
    return o


def handle(b, name, container=None, tensor_name=None):
    h = b.tensor(tensor_name or f"h_{name}", [], "resource")
    fields = dict(sharedName=name) if container is None else dict(sharedName=name, container=container)
    b.op("VAR_HANDLE", [], out=h, options=_o("VarHandleOptionsT", **fields))
    return h


def read(b, h, name, shape, dtype, q=(None, None)):
    return b.op("READ_VARIABLE", [h], out=b.tensor(name, shape, dtype, *q), options=_o("ReadVariableOptionsT"))


def assign(b, h, value):
    b.op("ASSIGN_VARIABLE", [h, value], out=[], options=_o("AssignVariableOptionsT"))


Q = {"float32": (None, None), "int8": (0.05, -5), "int16": (0.002, 0), "int32": (None, None)}


def accumulator(dtype="float32", shape=(2, 3), init=None, init_by_op=False, name="acc", q=None):
    """y = variable + x; variable = y. With init: a CALL_ONCE subgraph assigns it first (a constant, or, with
    init_by_op, the sum of two constants computed by an ADD inside the init subgraph)."""
    q = q or Q[dtype]

    def build():
        b = ModelBuilder()
        x = b.input("x", shape, dtype, *q)
        if init is not None:
            sub = b.subgraph()
            h0 = handle(sub, name)
            value = np.full(shape, init).astype(np.dtype(dtype))
            if init_by_op:
                c1 = sub.const("c1", value, dtype, *q)
                c2 = sub.const("c2", np.ones(shape, np.dtype(dtype)), dtype, *q)
                v = sub.op("ADD", [c1, c2], out=sub.tensor("init_sum", shape, dtype, *q))
            else:
                v = sub.const("init", value, dtype, *q)
            assign(sub, h0, v)
            b.op("CALL_ONCE", [], out=[], options=_o("CallOnceOptionsT", initSubgraphIndex=sub.index))
        h = handle(b, name)
        r = read(b, h, "r", shape, dtype, q)
        y = b.op("ADD", [r, x], out=b.tensor("y", shape, dtype, *q))
        assign(b, h, y)
        b.output(y)
        return b

    return build


def _int_range(dtype):
    return {"int8": (-3, 3), "int16": (-50, 50), "int32": (-1000, 1000)}[dtype]


def _cases(shape, dtype, seed=0, count=7):
    rng = np.random.default_rng(seed)
    if dtype == "float32":
        cases = [[rng.uniform(-1, 1, shape).astype(np.float32)] for _ in range(count)]
    else:
        lo, hi = _int_range(dtype)
        cases = [[rng.integers(lo, hi, shape).astype(dtype)] for _ in range(count)]
    cases[1] = [cases[0][0].copy()]
    return cases


def _check(tmp_path, build, shape, dtype):
    cases = _cases(shape, dtype)
    check_against_tflm(tmp_path, build(), cases=cases)
    # The state matters: the same input twice in a row gives different outputs.
    path = str(tmp_path / "model.tflite")
    got = execute_on_host(compile_model(path, "m", "host"), cases)
    assert not np.array_equal(got[0][0], got[1][0])


@needs_tflm
@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32"])
def test_accumulator_without_init(tmp_path, dtype):
    """Read before any assignment: the variable holds TFLite Micro's default (the int8 zero point, else zeros)."""
    _check(tmp_path, accumulator(dtype), (2, 3), dtype)


@needs_tflm
@pytest.mark.parametrize("dtype,init", [("float32", 0.5), ("int8", 7), ("int16", -300), ("int32", 123456)])
def test_accumulator_with_call_once(tmp_path, dtype, init):
    _check(tmp_path, accumulator(dtype, init=init), (2, 3), dtype)


@needs_tflm
def test_init_subgraph_computes(tmp_path):
    """The init subgraph runs an operator of its own (workspace inside the once-block)."""
    _check(tmp_path, accumulator("float32", shape=(4, 5), init=0.25, init_by_op=True), (4, 5), "float32")


@needs_tflm
def test_two_variables_and_handles(tmp_path):
    """Two variables (one per shared name; a second VAR_HANDLE of a name finds the same variable, also one naming no
    container): y = a + b + x, a = y, b = x."""

    def build():
        b = ModelBuilder()
        x = b.input("x", [5], "float32")
        sub = b.subgraph()
        assign(sub, handle(sub, "a", container="c"), sub.const("a0", np.full([5], 2.0, np.float32), "float32"))
        b.op("CALL_ONCE", [], out=[], options=_o("CallOnceOptionsT", initSubgraphIndex=1))
        ha = handle(b, "a", container="c")
        hb = handle(b, "b", container="c")
        s = b.op(
            "ADD",
            [read(b, ha, "ra", [5], "float32"), read(b, hb, "rb", [5], "float32")],
            out=b.tensor("s", [5], "float32"),
        )
        y = b.op("ADD", [s, x], out=b.tensor("y", [5], "float32"))
        assign(b, handle(b, "a", tensor_name="h_a_any_container"), y)  # no container: finds ("c", "a")
        assign(b, hb, x)
        b.output(y)
        return b

    _check(tmp_path, build, (5,), "float32")


def _compile(tmp_path, build):
    path = str(tmp_path / "model.tflite")
    build().save(path)
    return compile_model(path, "m", "host")


def test_state_buffer_holds_variables(tmp_path):
    """Variables and the CALL_ONCE flag are in the state buffer (reset by <prefix>_reset), not in the workspace."""
    c = _compile(tmp_path, accumulator("int8", shape=(3, 7), init=1))
    h = c.files["m.h"]
    line = next(x for x in h.splitlines() if "#define M_STATE_SIZE" in x)
    assert int(line.split()[2].strip("()u")) >= 21 + 4
    assert "memset(st + 0u, 251, 21u)" in c.files["m.c"]  # the int8 zero point -5


def test_container_tells_variables_apart(tmp_path):
    """Same shared name in two containers: two variables of 12 bytes each (TFLite Micro's FindId); the Python
    interpreter counts variables by shared name only, so this one is checked on the state layout."""

    def build():
        b = ModelBuilder()
        x = b.input("x", [3], "float32")
        h1, h2 = handle(b, "v", container="c1"), handle(b, "v", container="c2", tensor_name="h2")
        assign(b, h1, x)
        y = b.op("ADD", [read(b, h2, "r", [3], "float32"), x], out=b.tensor("y", [3], "float32"))
        assign(b, h2, y)
        b.output(y)
        return b

    c = _compile(tmp_path, build)
    line = next(x for x in c.files["m.h"].splitlines() if "#define M_STATE_SIZE" in x)
    assert int(line.split()[2].strip("()u")) == 24


def test_read_never_assigned_refused(tmp_path):
    def build():
        b = ModelBuilder()
        x = b.input("x", [3], "float32")
        y = b.op("ADD", [read(b, handle(b, "v"), "r", [3], "float32"), x], out=b.tensor("y", [3], "float32"))
        b.output(y)
        return b

    with pytest.raises(UnsupportedError, match="no ASSIGN_VARIABLE of the model writes"):
        _compile(tmp_path, build)


def test_size_mismatch_refused(tmp_path):
    def build():
        b = ModelBuilder()
        x = b.input("x", [3], "float32")
        h = handle(b, "v")
        r = read(b, h, "r", [4], "float32")
        b.output(b.op("ADD", [x, x], out=b.tensor("y", [3], "float32")), r)
        assign(b, h, x)
        return b

    with pytest.raises(UnsupportedError, match="every read and assignment of a variable"):
        _compile(tmp_path, build)


@pytest.mark.parametrize("index,match", [(5, "runs subgraph 5"), (0, "runs subgraph 0")])
def test_call_once_bad_subgraph(tmp_path, index, match):
    def build():
        b = ModelBuilder()
        x = b.input("x", [3], "float32")
        b.subgraph()
        b.op("CALL_ONCE", [], out=[], options=_o("CallOnceOptionsT", initSubgraphIndex=index))
        b.output(b.op("ADD", [x, x], out=b.tensor("y", [3], "float32")))
        return b

    with pytest.raises(CompileError, match=match):
        _compile(tmp_path, build)


def test_resource_to_other_op_refused(tmp_path):
    def build():
        b = ModelBuilder()
        x = b.input("x", [3], "float32")
        h = handle(b, "v")
        assign(b, h, x)
        b.output(b.op("ADD", [x, h], out=b.tensor("y", [3], "float32")))
        return b

    with pytest.raises(UnsupportedError, match="resource handles are supported only"):
        _compile(tmp_path, build)
