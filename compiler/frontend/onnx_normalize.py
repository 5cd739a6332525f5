"""Graph normalization of an ONNX model before it is translated: pins input shapes, inlines If nodes whose condition
is a constant, and folds constants to a fixpoint, so that shapes only constant propagation can see become static.

Exporters compute shapes at run time: opset-9 exports build Reshape targets with Shape -> Gather -> Concat, torch's
`expand(1, -1, -1)` becomes Shape / ConstantOfShape / Mul / Equal / Where / Expand, attention modules do Mod / Cast /
Div arithmetic on sizes, and Silero-style models branch (If) on a sample-rate input the user freezes. The onnx
package's shape inference alone does not see through these. Here, repeatedly until nothing changes:

1. shape inference (the onnx package's, with data propagation) over the current graph;
2. one pass over the nodes in order: an If whose condition is a constant is replaced by the nodes of the branch it
   takes (branch-local names renamed so they cannot clash; the branch's outputs become the If's outputs); a Shape /
   Size of a value whose shape is static, and any node whose inputs are all constants, is evaluated now (the onnx
   reference evaluator, fold.py, with its size limits) and its outputs become initializers; an operator that
   onnx_decompose.py rewrites (LSTM, GRU, RNN, the normalizations, DepthToSpace / SpaceToDepth) is replaced by
   standard operators once its input shape is static; a Loop with a constant trip count is unrolled (onnx_loop.py),
   a Scan over its static sequence length (onnx_scan.py).

Constants are the initializers, the inputs frozen with --freeze_input and what earlier folds produced; the rewrites
also read a DequantizeLinear of constants (a QDQ export's quantized parameters, onnx_dq_const.py) as its value.
Inputs get their shapes first: `--dim NAME=N` pins a named dimension, `--input_shape NAME=1,512` a whole input (for
dimensions the exporter left unnamed). An If whose condition is still computed at run time after the fixpoint becomes C
if / else (onnx_if.py; its branch-local names are made unique here); such a Loop is refused by name.
"""

import collections

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..errors import CompileError, UnsupportedError
from .onnx_decompose import decomposable, decompose
from .onnx_dq_const import dequantized_constant
from .onnx_if import branch_prefix, rename_branch_locals, unique_local_names
from .onnx_loop import unroll, unrollable
from .onnx_scan import unroll as unroll_scan
from .onnx_scan import unrollable as scan_unrollable
from .onnx_ops.fold import _NEVER, _check_sizes, _evaluate, _shape_op
from .onnx_ops.values import Value

_MAX_ROUNDS = 32  # each round folds at least one node; real exports settle in 2-4


class _Consts:
    """The folding view fold.py expects of the reader: values (name -> Value with .const), shapes, model."""

    def __init__(self, model):
        self.model = model
        self.values = {}
        self.shapes = {}
        # DequantizeLinear outputs with constant inputs (onnx_dq_const.py): constants for the rewrites only, so the
        # reader still sees the QDQ pattern of quantized weights.
        self.dequantized = {}

    def add(self, name: str, arr) -> None:
        arr = np.asarray(arr)
        self.values[name] = Value(name, tuple(int(d) for d in arr.shape), str(arr.dtype), const=arr)
        self.shapes[name] = tuple(int(d) for d in arr.shape)

    def has(self, name: str) -> bool:
        return name in self.values

    def constant(self, name: str):
        """The constant array of `name` (a DequantizeLinear of constants included), else None."""
        if name in self.values:
            return np.asarray(self.values[name].const)
        return self.dequantized.get(name)

    def note_dequantized(self, nodes) -> None:
        values = {n: v.const for n, v in self.values.items() if v.const is not None}
        for node in nodes:
            arr = dequantized_constant(node, values)
            if arr is not None:
                self.dequantized[node.output[0]] = arr


def _label(node) -> str:
    return f"ONNX node '{node.name or node.op_type}' ({node.op_type})"


def _pin_shapes(graph, dims: dict, input_shapes: dict, frozen: set, source: str) -> None:
    inputs = {i.name: i for i in graph.input}
    for name, shape in input_shapes.items():
        vi = inputs.get(name)
        if vi is None or name in frozen:
            free = sorted(n for n in inputs if n not in frozen and n not in {t.name for t in graph.initializer})
            raise CompileError(
                f"--input_shape {name}: '{source}' has no graph input of that name; its inputs are: "
                f"{', '.join(free) or '(none)'}."
            )
        tt = vi.type.tensor_type
        have = [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in tt.shape.dim]
        if tt.HasField("shape") and (
            len(have) != len(shape) or any(isinstance(h, int) and h != n for h, n in zip(have, shape))
        ):
            raise CompileError(
                f"--input_shape {name}={','.join(map(str, shape))}: the input's shape is {have}; give "
                f"{len(have)} dimensions that agree with its fixed ones."
            )
        tt.shape.Clear()
        for n in shape:
            tt.shape.dim.add().dim_value = n
    for vi in graph.input:
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param") and d.dim_param in dims:
                d.dim_value = dims[d.dim_param]


def _static_shapes(model, frozen_consts: dict) -> dict:
    """name -> static shape from the onnx package's shape inference (frozen inputs seen as initializers)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if frozen_consts:
        keep = [i for i in m.graph.input if i.name not in frozen_consts]
        del m.graph.input[:]
        m.graph.input.extend(keep)
        m.graph.initializer.extend(numpy_helper.from_array(np.asarray(a), n) for n, a in frozen_consts.items())
    try:
        g = onnx.shape_inference.infer_shapes(m, strict_mode=False, data_prop=True).graph
    except Exception:  # noqa: BLE001 - the reader's own inference call reports this with its message
        return {}
    out = {}
    for vi in list(g.value_info) + list(g.output) + list(g.input):
        tt = vi.type.tensor_type
        if tt.HasField("shape"):
            dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
            if all(d >= 0 for d in dims):
                out[vi.name] = tuple(int(d) for d in dims)
    return out


def _rename_graph(g, mapping: dict) -> None:
    """Renames value names used or defined in g and its nested subgraphs by `mapping`."""
    for n in g.node:
        n.input[:] = [mapping.get(x, x) for x in n.input]
        n.output[:] = [mapping.get(x, x) for x in n.output]
        for a in n.attribute:
            for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                _rename_graph(sub, mapping)
    for vi in list(g.output) + list(g.value_info):
        vi.name = mapping.get(vi.name, vi.name)


def _inline_if(node, cond, consts: _Consts, taken: set) -> list:
    """The nodes of the branch an If with a constant condition takes, renamed into the outer graph; the
    branch's initializers become constants."""
    c = np.asarray(cond)
    if c.size != 1:
        raise CompileError(
            f"{_label(node)}: its condition has {c.size} elements; If needs one. The model is malformed."
        )
    want = "then_branch" if bool(c.reshape(-1)[0]) else "else_branch"
    branch = next(a.g for a in node.attribute if a.name == want)
    if len(branch.output) != len(node.output):
        raise CompileError(
            f"{_label(node)}: its {want} has {len(branch.output)} outputs, the If {len(node.output)}. "
            "The model is malformed."
        )
    prefix = branch_prefix(node, want)
    mapping = unique_local_names(node, want, branch, taken)
    g = onnx.GraphProto()
    g.CopyFrom(branch)
    _rename_graph(g, mapping)
    for t in branch.initializer:
        consts.add(mapping[t.name], numpy_helper.to_array(t))
    nodes = list(g.node)
    # The If's outputs: renamed onto the producing branch node where it is one (no copy), else an Identity.
    producers = {o: n for n in nodes for o in n.output if o}
    used = set()
    for out, bout in zip(node.output, [o.name for o in g.output]):
        if not out:
            continue
        p = producers.get(bout)
        if p is not None and bout not in used and bout in mapping.values():
            p.output[:] = [out if x == bout else x for x in p.output]
            for n in nodes:
                n.input[:] = [out if x == bout else x for x in n.input]
            used.add(bout)
        else:
            nodes.append(helper.make_node("Identity", [bout], [out], name=prefix + "output:" + out))
    return nodes


def _foldable(node, consts: _Consts, shapes: dict) -> bool:
    if node.op_type in _NEVER or node.domain not in ("", "ai.onnx") or node.op_type in ("If", "Loop", "Scan"):
        return False
    if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in node.attribute):
        return False
    ins = [n for n in node.input if n]
    if node.op_type in ("Shape", "Size") and ins and not consts.has(ins[0]):
        shape = shapes.get(ins[0])
        return shape is not None and all(d > 0 for d in shape)
    return all(consts.has(n) for n in ins)


def _fold(node, consts: _Consts, shapes: dict) -> None:
    ins = [n for n in node.input if n]
    if node.op_type in ("Shape", "Size") and not consts.has(ins[0]):
        consts.values[ins[0]] = Value(ins[0], shapes[ins[0]], "float32")  # the shape is all _shape_op reads
        try:
            results = _shape_op(consts, node)
        finally:
            del consts.values[ins[0]]
    else:
        _check_sizes(consts, node)
        try:
            results = _evaluate(consts, node)
        except Exception as e:  # noqa: BLE001 - any evaluator failure is the model's
            raise CompileError(
                f"{_label(node)} has only constant inputs but could not be evaluated at compile time "
                f"({type(e).__name__}: {e})."
            ) from None
        _check_sizes(consts, node, results)
    for name, arr in zip([n for n in node.output if n], results):
        consts.add(name, arr)


def normalize(model, source: str, frozen: dict = None, dims: dict = None, input_shapes: dict = None):
    """A normalized copy of `model` (see the module docstring); `frozen` maps input names to their constant
    values (already checked against the inputs)."""
    frozen = frozen or {}
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    _pin_shapes(g, dims or {}, input_shapes or {}, set(frozen), source)
    has_if = any(n.op_type in ("If", "Loop", "Scan") for n in g.node)
    opset = next((int(o.version) for o in m.opset_import if o.domain in ("", "ai.onnx")), 1)
    consts = _Consts(m)
    for t in g.initializer:
        consts.add(t.name, numpy_helper.to_array(t))
    for name, arr in frozen.items():
        consts.add(name, arr)
    initial = set(consts.values)
    taken = {t.name for t in g.initializer} | {i.name for i in g.input} | {o for n in g.node for o in n.output}
    for _ in range(_MAX_ROUNDS):
        shapes = _static_shapes(m, frozen)
        consts.note_dequantized(g.node)
        work = collections.deque(g.node)
        kept, changed = [], False
        while work:
            node = work.popleft()
            if node.op_type == "If" and node.domain in ("", "ai.onnx") and consts.has(node.input[0]):
                work.extendleft(reversed(_inline_if(node, consts.values[node.input[0]].const, consts, taken)))
                changed = True
            elif unrollable(node, consts):
                work.extendleft(reversed(unroll(node, consts, taken, opset, _rename_graph)))
                changed = True
            elif scan_unrollable(node, shapes, consts):
                work.extendleft(reversed(unroll_scan(node, shapes, consts, taken, opset, _rename_graph)))
                changed = True
            elif _foldable(node, consts, shapes):
                _fold(node, consts, shapes)
                changed = True
            elif decomposable(node, shapes):
                work.extendleft(reversed(decompose(node, shapes, consts, taken, opset)))
                changed = True
            else:
                kept.append(node)
        del g.node[:]
        g.node.extend(kept)
        # Folded values become initializers (the reader reads constants from there); unused ones are dropped.
        used = {x for n in kept for x in _reads(n)} | {o.name for o in g.output}
        have = {t.name for t in g.initializer}
        for name in sorted(used):
            if name in consts.values and name not in initial and name not in have:
                g.initializer.append(numpy_helper.from_array(np.asarray(consts.values[name].const), name))
        if not changed:
            break
    if not has_if:
        return m
    for n in g.node:
        if n.op_type == "Scan":
            raise UnsupportedError(
                f"{_label(n)}: the sequence length of its scan inputs is not static. A Scan is compiled by unrolling "
                "it, which needs every scan input's shape (pin unnamed dimensions with --input_shape / --dim)."
            )
        if n.op_type == "Loop":
            raise UnsupportedError(
                f"{_label(n)}: its trip count '{n.input[0]}' is "
                + ("absent (a while loop)" if not n.input[0] else "computed at run time")
                + ". A Loop is compiled by unrolling it, which needs a trip count that is a constant after "
                "--freeze_input / --dim / constant folding."
            )
        if n.op_type == "If":
            # Data-dependent: compiled as C if / else (onnx_if.py), with names unique across the branches.
            rename_branch_locals(n, taken, _rename_graph)
    return m


def _reads(node) -> list:
    """Names a node reads, its subgraphs' outer-scope reads included."""
    names = [x for x in node.input if x]
    for a in node.attribute:
        for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
            local = {t.name for t in sub.initializer} | {o for n in sub.node for o in n.output}
            names += [x for n in sub.node for x in _reads(n) if x not in local]
            names += [o.name for o in sub.output if o.name not in local]
    return names
