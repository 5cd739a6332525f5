"""ONNX backend conformance for the ONNX frontend: every backend test case whose operators are all in the
supported list runs through the compiler and the host C compiler and is compared with its expected outputs
(float32: rtol 1e-4, atol 1e-5; integer and bool outputs: exact).

Cases come from the onnx wheel: the stored data directories (pytorch-converted, pytorch-operator, simple, and
node when the wheel ships it) plus the node cases generated in memory from onnx.backend.test.case.node (the
wheel ships their generators instead of their data).  For speed every case is compiled (python) in a worker
process, and all cases build into ONE C program run in ONE process (compiler/host_batch.py: model symbols are
prefix-mangled, a few models share a translation unit, the CRT is linked once; a case that does not build or
crashes fails alone).  Everything is written under one temporary directory.

Which cases count ("applicable"), decided from the model alone, before anything is compiled:
- every operator of the case is in OPS (Constant, which is folded, may also appear); other cases are not
  collected at all;
- it is not 3-D spatial: no Conv / pooling / BatchNormalization / QLinearConv on rank-5 data or with a 3-D
  kernel (`three_d`; these must still be refused with a clear error, never answered wrongly);
- every graph input and output (after the parameter freezing below) is a tensor whose element type is in
  IO_TYPES: FLOAT, INT8, UINT8, INT32 or BOOL.  Cases with float64 / float16 / float8 / 4- and 2-bit / int16 /
  uint16 / uint32 / int64 / uint64 inputs or outputs, or sequence / optional values, are "not applicable" (`na`,
  reported with the type); they too must be refused clearly.
Graph inputs that only feed parameter slots (PARAM_SLOTS: weights, shapes, axes, pads, scales, Clip bounds,
training_mode ...) and hold the same value in every data set are frozen into initializers (reported per case),
since an ahead-of-time compiler needs them constant.  ROUNDED_EXPECTED lists cases whose expected outputs are
hand-written with fewer digits than float32 (compared with half their last digit as the absolute tolerance).

Outcomes: pass; unsupported (a CompileError/UnsupportedError: one clear paragraph); wrong (mismatch); crash
(a traceback, a C build failure or a failed run).  `python tests/compiler/onnx_conformance.py [--out FILE]`
prints (and writes) the per-operator table; `--only REGEX` runs only the cases whose name it matches (re.search),
for iterating on a few operators (its pass rate is then of those cases only).
"""

import argparse
import glob
import multiprocessing
import os
import re
import sys
import tempfile
import traceback
import warnings
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

OPS = (
    "Conv Gemm MatMul Relu LeakyRelu PRelu Clip Sigmoid Tanh HardSigmoid HardSwish Softmax MaxPool AveragePool "
    "GlobalAveragePool GlobalMaxPool Add Sub Mul Div Reshape Flatten Transpose Concat Squeeze Unsqueeze "
    "BatchNormalization Pad ReduceMean Identity Dropout Slice Split Gather QuantizeLinear DequantizeLinear "
    "QLinearConv QLinearMatMul Abs Neg Sqrt Reciprocal Exp Log Sin Cos Floor Ceil Round Min Max Equal Less "
    "LessOrEqual Greater GreaterOrEqual And Or Not Where Resize Upsample Erf Softplus Gelu Expand Tile ReduceMax "
    "ReduceMin ReduceSum ArgMax ArgMin Pow ConvTranspose ReduceProd"
).split()
# Constant carries no computation (it is folded); cases using it with listed ops are applicable.
ALLOWED = set(OPS) | {"Constant"}
SPATIAL = {
    "Conv",
    "ConvTranspose",
    "MaxPool",
    "AveragePool",
    "BatchNormalization",
    "GlobalAveragePool",
    "GlobalMaxPool",
    "QLinearConv",
}
RTOL, ATOL = 1e-4, 1e-5
# Cases whose stored expected outputs are written by hand with fewer digits than float32 (the generator's
# literal): compared with an absolute tolerance of half their last digit instead.
ROUNDED_EXPECTED = {"test_averagepool_2d_ceil_last_window_starts_on_pad": 5e-5}  # y given with 4 decimals

# Operand positions that are parameters (weights, shapes, axes, indices, pads, quantization), not data.  The
# node tests often feed them as graph inputs; an ahead-of-time compiler needs them constant, so the harness
# freezes such an input into an initializer when every data set gives it the same value, and says so.
PARAM_SLOTS = {
    "Conv": {1, 2},
    "BatchNormalization": {1, 2, 3, 4},
    "Clip": {1, 2},
    "PRelu": {1},
    "Reshape": {1},
    "Squeeze": {1},
    "Unsqueeze": {1},
    "ReduceMean": {1},
    "Slice": {1, 2, 3, 4},
    "Split": {1},
    "Gather": {1},
    "Pad": {1, 2, 3},
    "QuantizeLinear": {1, 2},
    "DequantizeLinear": {1, 2},
    "QLinearConv": {1, 2, 3, 4, 5, 6, 7, 8},
    "QLinearMatMul": {1, 2, 3, 4, 5, 6, 7},
    "Dropout": {1, 2},
    "Resize": {1, 2, 3},
    "Upsample": {1},
    "Expand": {1},
    "Tile": {1},
    "ReduceMax": {1},
    "ReduceMin": {1},
    "ReduceSum": {1},
    "ReduceProd": {1},
    "ConvTranspose": {1, 2},
}


def freeze_parameters(model, data_sets):
    """(model, data_sets, frozen names): graph inputs used only as parameters, equal in every data set, become
    initializers."""
    from onnx import numpy_helper

    g = model.graph
    init = {t.name for t in g.initializer}
    names = [i.name for i in g.input if i.name not in init]
    uses = {}
    for n in g.node:
        for pos, name in enumerate(n.input):
            uses.setdefault(name, []).append(pos in PARAM_SLOTS.get(n.op_type, ()))
    frozen = []
    for pos, name in enumerate(names):
        if not uses.get(name) or not all(uses[name]) or any(len(ins) <= pos for ins, _ in data_sets):
            continue
        first = data_sets[0][0][pos]
        if isinstance(first, np.generic):  # numpy scalars (e.g. a Clip bound) are 0-d tensors
            first = np.asarray(first)
        if not isinstance(first, np.ndarray) or first.dtype.kind not in "biuf":
            continue
        if all(np.array_equal(np.asarray(ins[pos]), first) for ins, _ in data_sets[1:]):
            frozen.append((pos, name, first))
    if not frozen:
        return model, data_sets, []
    drop = {pos for pos, _, _ in frozen}
    for _, name, value in frozen:
        g.initializer.append(numpy_helper.from_array(value, name))
    keep = [i for i in g.input if i.name not in {n for _, n, _ in frozen}]
    del g.input[:]
    g.input.extend(keep)
    sets = [([a for i, a in enumerate(ins) if i not in drop], outs) for ins, outs in data_sets]
    return model, sets, [n for _, n, _ in frozen]


@dataclass
class Case:
    name: str
    source: str
    model_path: str
    ops: list
    data_sets: list  # [(inputs, outputs)] as numpy arrays
    three_d: bool = False
    frozen: list = field(default_factory=list)
    na: str = ""  # why the case is not applicable (besides 3-D), else ""
    outcome: str = ""
    detail: str = ""
    prefix: str = ""


def _load_dir_case(path: str, source: str):
    import onnx
    from onnx import numpy_helper

    model = onnx.load(os.path.join(path, "model.onnx"))
    sets = []
    for d in sorted(glob.glob(os.path.join(path, "test_data_set_*"))):
        ins = [numpy_helper.to_array(onnx.load_tensor(p)) for p in sorted(glob.glob(os.path.join(d, "input_*.pb")))]
        outs = [numpy_helper.to_array(onnx.load_tensor(p)) for p in sorted(glob.glob(os.path.join(d, "output_*.pb")))]
        sets.append((ins, outs))
    return model, sets


def _is_3d(model) -> bool:
    """A spatial op on rank-5 data (3-D convolution/pooling): outside the required scope."""
    import onnx

    shapes = {}
    for vi in list(model.graph.input) + list(model.graph.value_info):
        shapes[vi.name] = len(vi.type.tensor_type.shape.dim)
    for t in model.graph.initializer:
        shapes[t.name] = len(t.dims)
    for n in model.graph.node:
        if n.op_type in SPATIAL and n.input and shapes.get(n.input[0], 0) >= 5:
            return True
        if n.op_type in ("Conv", "ConvTranspose", "QLinearConv"):
            w = n.input[3] if n.op_type == "QLinearConv" else n.input[1]
            if shapes.get(w, 0) >= 5:
                return True
        for a in n.attribute:
            if a.name == "kernel_shape" and len(onnx.helper.get_attribute_value(a)) >= 3:
                return True
    return False


# Element types a model input/output may have in an applicable case: what a Cortex-M deployment of a float or
# 8-bit quantized network uses (float32; int8 and uint8 for quantized and raw byte data; int32 for indices and
# shape data; bool for masks).  Cases whose graph inputs/outputs are of other types (float64, float16, bfloat16,
# the float8/int4/int2/float4 formats, int16, uint16, uint32, int64, uint64) or are not tensors (sequences,
# optionals) are counted as "not applicable" and reported by type.
IO_TYPES = ("FLOAT", "INT8", "UINT8", "INT32", "BOOL")


def io_type_reason(model) -> str:
    """'' when every graph input/output is a tensor of an IO_TYPES element type, else why not."""
    import onnx

    init = {t.name for t in model.graph.initializer}
    for kind, vis in (("input", [i for i in model.graph.input if i.name not in init]), ("output", model.graph.output)):
        for vi in vis:
            if not vi.type.HasField("tensor_type"):
                return f"{kind} '{vi.name}' is not a tensor ({vi.type.WhichOneof('value')})"
            name = onnx.TensorProto.DataType.Name(vi.type.tensor_type.elem_type)
            if name not in IO_TYPES:
                return f"{kind} '{vi.name}' is {name}"
    return ""


def collect_cases(tmp: str, only: str = "") -> list:
    import onnx

    wanted = re.compile(only).search if only else (lambda name: True)
    data = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    cases = []
    for source in ("node", "pytorch-converted", "pytorch-operator", "simple"):
        for path in sorted(glob.glob(os.path.join(data, source, "*", "model.onnx"))):
            model = onnx.load(path)
            ops = sorted({n.op_type for n in model.graph.node})
            if set(ops) <= ALLOWED and wanted(os.path.basename(os.path.dirname(path))):
                _, sets = _load_dir_case(os.path.dirname(path), source)
                model, sets, frozen = freeze_parameters(model, sets)
                if frozen:
                    path = os.path.join(tmp, source + "_" + os.path.basename(os.path.dirname(path)) + ".onnx")
                    onnx.save(model, path)
                cases.append(
                    Case(
                        os.path.basename(os.path.dirname(path))
                        if not frozen
                        else os.path.basename(path)[len(source) + 1 : -5],
                        source,
                        path,
                        ops,
                        sets,
                        _is_3d(model),
                        frozen,
                        io_type_reason(model),
                    )
                )
    if not glob.glob(os.path.join(data, "node", "*")):
        from onnx.backend.test.case import node as node_cases

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            generated = node_cases.collect_testcases(None)
        os.makedirs(os.path.join(tmp, "node"), exist_ok=True)
        for tc in generated:
            ops = sorted({n.op_type for n in tc.model.graph.node})
            if not set(ops) <= ALLOWED or not wanted(tc.name):
                continue
            path = os.path.join(tmp, "node", tc.name + ".onnx")
            sets = [(list(ins), list(outs)) for ins, outs in tc.data_sets]
            model, sets, frozen = freeze_parameters(tc.model, sets)
            onnx.save(model, path)
            cases.append(
                Case(tc.name, "node (generated)", path, ops, sets, _is_3d(model), frozen, io_type_reason(model))
            )
    return cases


# --- compile one case (worker process) ------------------------------------------------------------------------


def _compile_case(args):
    """Worker: one case compiled (python only); its host model (compiler/host_batch.py) and I/O on success."""
    index, model_path = args
    from compiler.driver import compile_model
    from compiler.errors import CompileError
    from compiler.host_batch import host_model

    prefix = f"case{index}"
    try:
        compiled = compile_model(model_path, prefix)
    except CompileError as e:
        return index, "unsupported", f"{type(e).__name__}: {e}", None
    except Exception:
        return index, "crash", traceback.format_exc(limit=4), None
    try:
        io = (
            [(t.name, t.dtype, tuple(t.shape)) for t in compiled.graph.inputs],
            [(t.name, t.dtype, tuple(t.shape)) for t in compiled.graph.outputs],
        )
        return index, "compiled", io, host_model(compiled)
    except Exception:
        return index, "crash", traceback.format_exc(limit=4), None


def _inputs(case: Case, io) -> list:
    """The case's data sets' inputs in the model's types (per data set, one array per input); None after setting
    the case's outcome when they do not fit the model."""
    ins, _ = io
    sets = []
    for inputs, _ in case.data_sets:
        if len(inputs) != len(ins):
            case.outcome, case.detail = "crash", f"{len(inputs)} inputs in the data, {len(ins)} in the model"
            return None
        one = []
        for arr, (name, dtype, shape) in zip(inputs, ins):
            a = np.asarray(arr)
            if a.size != int(np.prod(shape)):
                case.outcome, case.detail = "crash", f"input '{name}' has {a.size} values, model wants {shape}"
                return None
            one.append(a.astype(dtype))
        sets.append(one)
    return sets


def _compare(case: Case, io, got) -> None:
    """The case's outcome from its host outputs (per data set, one array per output) or its host failure."""
    _, outs = io
    if isinstance(got, Exception):
        case.outcome, case.detail = "crash", str(got)[-2000:]
        return
    for si, ((_, expected), per_set) in enumerate(zip(case.data_sets, got)):
        for (name, dtype, shape), want, g in zip(outs, expected, per_set):
            got_a = np.asarray(g, dtype=dtype).reshape(shape)
            want = np.asarray(want)
            if want.shape != got_a.shape and want.size == got_a.size:
                want = want.reshape(got_a.shape)
            if dtype == "float32":
                atol = ROUNDED_EXPECTED.get(case.name, ATOL)
                ok = want.shape == got_a.shape and np.allclose(
                    got_a, want.astype(np.float32), rtol=RTOL, atol=atol, equal_nan=True
                )
            else:
                ok = want.shape == got_a.shape and np.array_equal(got_a, want.astype(dtype))
            if not ok:
                diff = (
                    float(np.max(np.abs(got_a.astype(np.float64) - want.astype(np.float64))))
                    if want.shape == got_a.shape
                    else "shape"
                )
                case.outcome, case.detail = "wrong", f"data set {si} output '{name}': max |diff| {diff}"
                return
    case.outcome = "pass"


def run_conformance(tmp: str, processes: int = 0, only: str = "") -> list:
    """Every case compiled in worker processes (python), then all host runs one program (compiler/host_batch.py:
    units of a few models, one link, one process; a case whose C does not build or whose run crashes fails
    alone), each case's outputs compared with its expected ones."""
    from compiler import host_batch

    cases = collect_cases(tmp, only)
    jobs = [(i, c.model_path) for i, c in enumerate(cases)]
    procs = processes or min(4, os.cpu_count() or 1)
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(procs) as pool:
        results = pool.map(_compile_case, jobs, chunksize=4)
    batch = []
    for index, status, info, model in results:
        case = cases[index]
        case.prefix = f"case{index}"
        if status != "compiled":
            case.outcome, case.detail = status, info
            continue
        sets = _inputs(case, info)
        if sets is not None:
            batch.append((case, info, model, sets))
    # -O0 as before: the units' build dominates, and results do not depend on the level (see type_matrix.py).
    got = host_batch.run_many(
        [(model, sets) for _, _, model, sets in batch],
        threads=procs,
        timeout=120,
        work_dir=os.path.join(tmp, "host"),
        cflags=["-O0"],
    )
    for (case, io, _, _), g in zip(batch, got):
        try:
            _compare(case, io, g)
        except Exception:
            case.outcome, case.detail = "crash", traceback.format_exc(limit=3)
    return cases


def applicable(case) -> bool:
    return not case.three_d and not case.na


def summarize(cases: list) -> tuple:
    """(table text, applicable count, passes among applicable)."""
    per_op = defaultdict(lambda: defaultdict(int))
    for c in cases:
        for op in c.ops:
            if op == "Constant":
                continue
            if c.three_d:
                per_op[op]["3d"] += 1
                per_op[op]["3d_" + c.outcome] += 1
            elif c.na:
                per_op[op]["na"] += 1
            else:
                per_op[op]["n"] += 1
                per_op[op][c.outcome] += 1
    lines = [
        "| ONNX op | applicable 1-D/2-D cases | pass | unsupported | wrong | crash | 3-D cases (pass) | "
        "other I/O types (n/a) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for op in OPS:
        s = per_op.get(op, {})
        lines.append(
            f"| {op} | {s.get('n', 0)} | {s.get('pass', 0)} | {s.get('unsupported', 0)} | "
            f"{s.get('wrong', 0)} | {s.get('crash', 0)} | {s.get('3d', 0)} ({s.get('3d_pass', 0)}) | "
            f"{s.get('na', 0)} |"
        )
    app = [c for c in cases if applicable(c)]
    passed = sum(c.outcome == "pass" for c in app)
    by = defaultdict(int)
    for c in app:
        by[c.outcome] += 1
    lines.append("")
    strict = sum(c.outcome == "pass" and not c.frozen for c in app)
    lines.append(
        f"{sum(bool(c.frozen) for c in app)} applicable cases feed parameters (weights, shapes, axes, "
        "indices, pads, scales) as graph inputs; the harness froze those inputs into initializers (same "
        f"value in every data set). Without that, {strict} cases pass "
        f"({100.0 * strict / max(len(app), 1):.1f} %)."
    )
    na = [c for c in cases if c.na and not c.three_d]
    lines.append(
        f"Cases (a case counts once per distinct op it uses in the rows above): {len(app)} applicable "
        f"1-D/2-D cases, {passed} pass ({100.0 * passed / max(len(app), 1):.1f} %), "
        f"{by['unsupported']} unsupported, {by['wrong']} wrong, {by['crash']} crash; "
        f"{sum(c.three_d for c in cases)} 3-D cases ({sum(c.three_d and c.outcome == 'pass' for c in cases)} "
        f"pass, the rest unsupported); {len(na)} cases with other I/O element types "
        f"({sum(c.outcome == 'pass' for c in na)} pass anyway)."
    )
    fails = [c for c in cases if c.outcome != "pass"]
    if fails:
        lines.append("")
        lines.append("Not passing:")
        for c in sorted(fails, key=lambda c: (not applicable(c), c.source, c.name)):
            tag = ", 3-D" if c.three_d else (f", n/a: {c.na}" if c.na else "")
            lines.append(
                f"- {c.source}/{c.name} [{c.outcome}{tag}"
                f"{', frozen ' + ','.join(c.frozen) if c.frozen else ''}]: "
                f"{' '.join(str(c.detail).split())[:300]}"
            )
    return "\n".join(lines), len(app), passed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="also write the table to this file")
    ap.add_argument("--processes", type=int, default=0)
    ap.add_argument("--only", default="", help="run only the cases whose name matches this regular expression")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="onnx-conf-") as tmp:
        cases = run_conformance(tmp, args.processes, args.only)
    text, _, _ = summarize(cases)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
