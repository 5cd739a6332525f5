"""A TFLite model's further subgraphs and resource variables, turned into one IR graph.

TFLite keeps what a model does once (giving its resource variables their first values) in a subgraph of its own
that a CALL_ONCE operator runs on the first invocation. The compiler places that subgraph's operators into the main
graph right after the CALL_ONCE, followed by a closing CALL_ONCE_END (ops/call_once.py): the generated code runs them
under a flag in the state buffer, i.e. on the first `<prefix>_run` after `<prefix>_reset`.

Resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) become variable tensors of the state buffer (the
same state stateful SVDF / LSTM models keep): each VAR_HANDLE names a variable by (container, shared_name) and
finds it as TFLite Micro's MicroResourceVariables does, the handle tensors disappear, and READ_VARIABLE /
ASSIGN_VARIABLE copy from / into the variable tensor. A variable's type, shape and quantization are those of the
value of its first ASSIGN_VARIABLE in TFLite Micro's prepare order (subgraph by subgraph, operators in order); its
reset value is the int8 zero point (else zeros), as TFLite Micro fills it.

Subgraphs no CALL_ONCE runs (the branches of IF, the condition and body of WHILE) stay out of the graph; their
IF / WHILE operators are refused by name.
"""

from dataclasses import dataclass

from ..errors import CompileError, UnsupportedError
from ..ir import Operator, Tensor

_VARIABLE_OPS = ("READ_VARIABLE", "ASSIGN_VARIABLE")


@dataclass
class Subgraph:
    index: int
    inputs: list     # tensor indices (in the model-wide tensor list)
    outputs: list
    ops: list        # Operator, index = position in the subgraph


def _name(op) -> str:
    k, pos = op.origin
    return f"Operator {pos}{f' of subgraph {k}' if k else ''} ({op.kind})"


def inline_subgraphs(subgraphs: list, tensors: list, resources: set) -> list:
    """The main graph's operators with every CALL_ONCE's init subgraph placed after it, resource handles resolved
    to variable tensors (appended to `tensors`), renumbered in execution order."""
    for sg in subgraphs:
        for pos, op in enumerate(sg.ops):
            op.origin = (sg.index, pos)
    ops, run_by = [], {}
    for op in subgraphs[0].ops:
        if op.kind != "CALL_ONCE":
            ops.append(op)
            continue
        k = op.options.get("InitSubgraphIndex")
        if op.inputs or op.outputs:
            raise CompileError(f"{_name(op)} has {len(op.inputs)} inputs and {len(op.outputs)} outputs; CALL_ONCE "
                               "has none. The model file is malformed.")
        if not isinstance(k, int) or not 0 < k < len(subgraphs):
            raise CompileError(f"{_name(op)} runs subgraph {k}, but the model's subgraphs are 0 (the main graph) to "
                               f"{len(subgraphs) - 1}. The model file is malformed.")
        if k in run_by:
            raise UnsupportedError(f"{_name(op)} runs subgraph {k}, which the CALL_ONCE operator {run_by[k]} runs "
                                   "too; each init subgraph may be run by one CALL_ONCE.")
        init = subgraphs[k]
        if init.inputs or init.outputs:
            raise UnsupportedError(f"{_name(op)} runs subgraph {k}, which has {len(init.inputs)} inputs and "
                                   f"{len(init.outputs)} outputs; a CALL_ONCE init subgraph has none (TFLite Micro "
                                   "runs it without any).")
        for b in init.ops:
            if b.kind in ("CALL_ONCE", "IF", "WHILE"):
                raise UnsupportedError(f"{_name(b)}: control flow inside the init subgraph of a CALL_ONCE is not "
                                       "supported; CALL_ONCE init subgraphs may hold ordinary operators and resource "
                                       "variable operators.")
        run_by[k] = op.origin[1]
        end = Operator(index=-1, kind="CALL_ONCE_END", inputs=[], outputs=[], options={})
        end.origin, end.begin = (0, op.origin[1]), op
        ops += [op] + init.ops + [end]
    _resolve_resources(ops, tensors, resources, [op for sg in subgraphs for op in sg.ops])
    ops = [op for op in ops if op.kind != "VAR_HANDLE"]
    for i, op in enumerate(ops):
        op.index = i
    return ops


def _text(raw):
    return raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw


def _resolve_resources(ops: list, tensors: list, resources: set, prepare_order: list) -> None:
    handles, names = {}, []   # handle tensor index -> variable number; (container, shared_name) per variable
    placed = {id(op) for op in ops}
    for op in prepare_order:
        if op.kind != "VAR_HANDLE" or id(op) not in placed:
            continue
        if op.inputs or len(op.outputs) != 1 or op.outputs[0].index not in resources:
            raise CompileError(f"{_name(op)} has {len(op.inputs)} inputs and {len(op.outputs)} outputs; VAR_HANDLE "
                               "has no input and one RESOURCE output. The model file is malformed.")
        c, n = _text(op.options.get("Container")), _text(op.options.get("SharedName")) or ""
        # As TFLite Micro finds a variable: same shared name, and same container unless this handle names none.
        vid = next((i for i, (vc, vn) in enumerate(names) if (c is None or c == vc) and n == vn), None)
        if vid is None:
            names.append((c, n))
            vid = len(names) - 1
        handles[op.outputs[0].index] = vid
    first = {}
    for op in prepare_order:
        if id(op) not in placed:
            continue
        for pos, t in enumerate(op.inputs):
            if t is None or t.index not in resources:
                continue
            if op.kind not in _VARIABLE_OPS or pos != 0:
                raise UnsupportedError(f"{_name(op)} takes the resource handle '{t.name}' as its input {pos}; "
                                       "resource handles are supported only as the variable of READ_VARIABLE and "
                                       "ASSIGN_VARIABLE.")
            if t.index not in handles:
                raise UnsupportedError(f"{_name(op)} uses the resource handle '{t.name}', which no VAR_HANDLE of the "
                                       "main graph or a CALL_ONCE init subgraph creates.")
            if op.kind == "ASSIGN_VARIABLE" and len(op.inputs) == 2 and op.inputs[1] is not None:
                first.setdefault(handles[t.index], op)
        if op.kind in _VARIABLE_OPS and (not op.inputs or op.inputs[0] is None or op.inputs[0].index not in resources):
            raise CompileError(f"{_name(op)} has no resource handle as its input 0 (the variable). The model file "
                               "is malformed.")
    variables = {}
    for vid, op in sorted(first.items()):
        value, (_, n) = op.inputs[1], names[vid]
        if value.dtype not in ("float32", "int8", "int16", "int32"):
            raise UnsupportedError(f"{_name(op)} gives resource variable '{n}' the type {value.dtype}; resource "
                                   "variables are supported in float32, int8, int16 and int32.")
        q = value.quant
        if q is not None and value.dtype != "int8" and any(int(z) != 0 for z in q.zero_point):
            raise UnsupportedError(f"{_name(op)} gives resource variable '{n}' the {value.dtype} zero point "
                                   f"{int(q.zero_point[0])}; TFLite Micro fills a variable with its zero point as "
                                   "bytes, which only an int8 zero point (or 0) survives.")
        v = Tensor(index=len(tensors), name=f"variable_{n}", shape=tuple(value.shape), dtype=value.dtype, quant=q,
                   is_variable=True)
        tensors.append(v)
        variables[vid] = v
    for op in ops:
        if op.kind in _VARIABLE_OPS:
            vid = handles[op.inputs[0].index]
            if vid not in variables:
                raise UnsupportedError(f"{_name(op)} uses resource variable '{names[vid][1]}', which no "
                                       "ASSIGN_VARIABLE of the model writes; TFLite Micro has no storage (and no "
                                       "value) for it.")
            op.inputs[0] = variables[vid]
