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

IF's branches and WHILE's condition and body are placed inline the same way, between marker operators that
become plain C control flow (see _expand). Subgraphs no operator runs stay out of the graph.
"""

from dataclasses import dataclass

from ..errors import CompileError, UnsupportedError
from ..ir import Operator, Tensor

_VARIABLE_OPS = ("READ_VARIABLE", "ASSIGN_VARIABLE")


@dataclass
class Subgraph:
    index: int
    inputs: list  # tensor indices (in the model-wide tensor list)
    outputs: list
    ops: list  # Operator, index = position in the subgraph


def _name(op) -> str:
    k, pos = op.origin
    return f"Operator {pos}{f' of subgraph {k}' if k else ''} ({op.kind})"


def inline_subgraphs(subgraphs: list, tensors: list, resources: set) -> list:
    """The main graph's operators with every CALL_ONCE / IF / WHILE subgraph placed inline (see _expand),
    resource handles resolved to variable tensors (appended to `tensors`), renumbered in execution order."""
    for sg in subgraphs:
        for pos, op in enumerate(sg.ops):
            op.origin = (sg.index, pos)
    ops = _expand(subgraphs[0].ops, subgraphs, tensors, {}, ())
    _resolve_resources(ops, tensors, resources, [op for sg in subgraphs for op in sg.ops])
    ops = [op for op in ops if op.kind != "VAR_HANDLE"]
    for i, op in enumerate(ops):
        op.index = i
    return ops


def _marker(kind, begin, inputs, outputs):
    m = Operator(index=-1, kind=kind, inputs=list(inputs), outputs=list(outputs), options={})
    m.origin, m.begin = begin.origin, begin
    return m


def _subgraph(op, field, subgraphs, used, stack):
    """The subgraph an operator's option `field` names, checked: exists, is not the main graph, runs once."""
    k = op.options.get(field)
    if not isinstance(k, int) or not 0 < k < len(subgraphs):
        raise CompileError(
            f"{_name(op)} runs subgraph {k} ({field}), but the model's subgraphs are 0 (the main "
            f"graph) to {len(subgraphs) - 1}. The model file is malformed."
        )
    if k in stack:
        raise UnsupportedError(f"{_name(op)} runs subgraph {k} from within itself; recursion is not supported.")
    if k in used:
        raise UnsupportedError(
            f"{_name(op)} runs subgraph {k}, which {used[k]} runs too; the compiler places each "
            "subgraph inline once, so each may be run by one operator."
        )
    used[k] = _name(op)
    return subgraphs[k]


def _require_like(op, what, pairs):
    for src, dst in pairs:
        if src.dtype != dst.dtype or src.nbytes != dst.nbytes:
            raise UnsupportedError(
                f"{_name(op)}: {what}: tensor '{src.name}' ({src.dtype} {list(src.shape)}) is "
                f"passed as '{dst.name}' ({dst.dtype} {list(dst.shape)}); the subgraphs of IF and "
                "WHILE must take and give tensors of the operator's constant types and shapes."
            )


def _expand(ops, subgraphs, tensors, used, stack) -> list:
    """ops with each CALL_ONCE / IF / WHILE followed by its subgraphs' operators and marker operators that the
    lowerings (ops/call_once.py, ops/if_then_else.py, ops/while_loop.py) turn into plain C control flow:

        CALL_ONCE, init ops, CALL_ONCE_END                      if (!done) { ...; done = 1; }
        IF, then ops, IF_ELSE, else ops, IF_END                 if (c) { in -> then in; ... } else { ... }; out
        WHILE, cond ops, WHILE_BODY, body ops, WHILE_END        S = in; for (;;) { S -> cond in; ...;
                                                                  if (!c) break; S -> body in; ...; S = body out }

    Every value crossing into or out of a subgraph is copied, as TFLite Micro copies it, so the memory planner sees
    ordinary operators in a line: a subgraph's tensors live between the markers, loop state across the loop."""
    out = []
    for op in ops:
        if op.kind == "CALL_ONCE":
            if op.inputs or op.outputs:
                raise CompileError(
                    f"{_name(op)} has {len(op.inputs)} inputs and {len(op.outputs)} outputs; "
                    "CALL_ONCE has none. The model file is malformed."
                )
            init = _subgraph(op, "InitSubgraphIndex", subgraphs, used, stack)
            if init.inputs or init.outputs:
                raise UnsupportedError(
                    f"{_name(op)} runs subgraph {init.index}, which has {len(init.inputs)} inputs "
                    f"and {len(init.outputs)} outputs; a CALL_ONCE init subgraph has none (TFLite "
                    "Micro runs it without any)."
                )
            out += (
                [op]
                + _expand(init.ops, subgraphs, tensors, used, stack + (init.index,))
                + [_marker("CALL_ONCE_END", op, [], [])]
            )
        elif op.kind == "IF":
            then_sg = _subgraph(op, "ThenSubgraphIndex", subgraphs, used, stack)
            else_sg = _subgraph(op, "ElseSubgraphIndex", subgraphs, used, stack)
            if (
                not op.inputs
                or op.inputs[0] is None
                or op.inputs[0].dtype != "bool"
                or op.inputs[0].num_elements < 1
                or any(t is None for t in op.inputs)
            ):
                raise UnsupportedError(
                    f"{_name(op)}: the condition (input 0) must be a bool tensor, as TFLite Micro reads it."
                )
            cond, operands, results = op.inputs[0], op.inputs[1:], op.outputs
            branches = []
            for sg in (then_sg, else_sg):
                sg_in = [tensors[i] for i in sg.inputs]
                sg_out = [tensors[i] for i in sg.outputs]
                if len(sg_in) != len(operands) or len(sg_out) != len(results):
                    raise UnsupportedError(
                        f"{_name(op)}: subgraph {sg.index} has {len(sg_in)} inputs and "
                        f"{len(sg_out)} outputs; the IF passes {len(operands)} and takes "
                        f"{len(results)}."
                    )
                _require_like(op, f"subgraph {sg.index}", list(zip(operands, sg_in)) + list(zip(sg_out, results)))
                branches.append((sg, sg_in, sg_out))
            (tsg, t_in, t_out), (esg, e_in, e_out) = branches
            # A constant operand becomes the constant of each branch's input, as it is in TFLite Micro (which
            # copies it in): a converter passes weights into an IF this way (openWakeWord's classifiers, whose
            # FULLY_CONNECTED in the branch needs constant weights). Only the other operands are copied.
            varying = [j for j, t in enumerate(operands) if t.data is None]
            for j, t in enumerate(operands):
                if t.data is not None:
                    for branch_in in (t_in[j], e_in[j]):
                        branch_in.data = t.data
                        branch_in.quant = branch_in.quant or t.quant
            passed = [operands[j] for j in varying]
            out += (
                [_marker("IF", op, [cond] + passed, [t_in[j] for j in varying])]
                + _expand(tsg.ops, subgraphs, tensors, used, stack + (tsg.index,))
                + [_marker("IF_ELSE", op, [cond] + passed, [e_in[j] for j in varying])]
                + _expand(esg.ops, subgraphs, tensors, used, stack + (esg.index,))
                + [_marker("IF_END", op, [cond] + t_out + e_out, results)]
            )
        elif op.kind == "WHILE":
            cond_sg = _subgraph(op, "CondSubgraphIndex", subgraphs, used, stack)
            body_sg = _subgraph(op, "BodySubgraphIndex", subgraphs, used, stack)
            loop_in, state = op.inputs, op.outputs
            c_in, c_out = [tensors[i] for i in cond_sg.inputs], [tensors[i] for i in cond_sg.outputs]
            b_in, b_out = [tensors[i] for i in body_sg.inputs], [tensors[i] for i in body_sg.outputs]
            if (
                any(t is None for t in loop_in)
                or len(loop_in) != len(state)
                or not len(c_in) == len(b_in) == len(b_out) == len(state)
                or len(c_out) != 1
            ):
                raise UnsupportedError(
                    f"{_name(op)} has {len(loop_in)} inputs and {len(state)} outputs, its condition "
                    f"subgraph {cond_sg.index} {len(c_in)} inputs and {len(c_out)} outputs, its "
                    f"body subgraph {body_sg.index} {len(b_in)} inputs and {len(b_out)} outputs; "
                    "all must pass the same loop values (and the condition give one bool)."
                )
            if c_out[0].dtype != "bool":
                raise UnsupportedError(
                    f"{_name(op)}: the condition subgraph's output '{c_out[0].name}' is "
                    f"{c_out[0].dtype}; it must be bool."
                )
            _require_like(
                op,
                "loop values",
                list(zip(loop_in, state)) + list(zip(state, c_in)) + list(zip(state, b_in)) + list(zip(b_out, state)),
            )
            out += (
                [_marker("WHILE", op, loop_in, state + c_in)]
                + _expand(cond_sg.ops, subgraphs, tensors, used, stack + (cond_sg.index,))
                + [_marker("WHILE_BODY", op, c_out + state, b_in)]
                + _expand(body_sg.ops, subgraphs, tensors, used, stack + (body_sg.index,))
                + [_marker("WHILE_END", op, b_out + state, [])]
            )
        else:
            out.append(op)
    return out


def _text(raw):
    return raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw


def _resolve_resources(ops: list, tensors: list, resources: set, prepare_order: list) -> None:
    handles, names = {}, []  # handle tensor index -> variable number; (container, shared_name) per variable
    placed = {id(op) for op in ops}
    for op in prepare_order:
        if op.kind != "VAR_HANDLE" or id(op) not in placed:
            continue
        if op.inputs or len(op.outputs) != 1 or op.outputs[0].index not in resources:
            raise CompileError(
                f"{_name(op)} has {len(op.inputs)} inputs and {len(op.outputs)} outputs; VAR_HANDLE "
                "has no input and one RESOURCE output. The model file is malformed."
            )
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
                raise UnsupportedError(
                    f"{_name(op)} takes the resource handle '{t.name}' as its input {pos}; "
                    "resource handles are supported only as the variable of READ_VARIABLE and "
                    "ASSIGN_VARIABLE."
                )
            if t.index not in handles:
                raise UnsupportedError(
                    f"{_name(op)} uses the resource handle '{t.name}', which no VAR_HANDLE of the "
                    "main graph or a CALL_ONCE init subgraph creates."
                )
            if op.kind == "ASSIGN_VARIABLE" and len(op.inputs) == 2 and op.inputs[1] is not None:
                first.setdefault(handles[t.index], op)
        if op.kind in _VARIABLE_OPS and (not op.inputs or op.inputs[0] is None or op.inputs[0].index not in resources):
            raise CompileError(
                f"{_name(op)} has no resource handle as its input 0 (the variable). The model file is malformed."
            )
    variables = {}
    for vid, op in sorted(first.items()):
        value, (_, n) = op.inputs[1], names[vid]
        if value.dtype not in ("float32", "int8", "int16", "int32"):
            raise UnsupportedError(
                f"{_name(op)} gives resource variable '{n}' the type {value.dtype}; resource "
                "variables are supported in float32, int8, int16 and int32."
            )
        q = value.quant
        if q is not None and value.dtype != "int8" and any(int(z) != 0 for z in q.zero_point):
            raise UnsupportedError(
                f"{_name(op)} gives resource variable '{n}' the {value.dtype} zero point "
                f"{int(q.zero_point[0])}; TFLite Micro fills a variable with its zero point as "
                "bytes, which only an int8 zero point (or 0) survives."
            )
        v = Tensor(
            index=len(tensors),
            name=f"variable_{n}",
            shape=tuple(value.shape),
            dtype=value.dtype,
            quant=q,
            is_variable=True,
        )
        tensors.append(v)
        variables[vid] = v
    for op in ops:
        if op.kind in _VARIABLE_OPS:
            vid = handles[op.inputs[0].index]
            if vid not in variables:
                raise UnsupportedError(
                    f"{_name(op)} uses resource variable '{names[vid][1]}', which no "
                    "ASSIGN_VARIABLE of the model writes; TFLite Micro has no storage (and no "
                    "value) for it."
                )
            op.inputs[0] = variables[vid]
