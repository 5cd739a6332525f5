"""Constant folding: a node whose inputs are all constants is evaluated now, with the onnx package's
reference evaluator, and its outputs become constants (shape arithmetic, Constant nodes, initializer-only
subgraphs).  Shape/Size only need the static input shape.  DequantizeLinear is never folded: the
quantized weights it reads are what int8 operators need."""

import warnings

import numpy as np
import onnx
from onnx import helper

from ... import limits
from ...errors import CompileError
from .values import Value

_NEVER = {
    "DequantizeLinear",
    "RandomNormal",
    "RandomUniform",
    "RandomNormalLike",
    "RandomUniformLike",
    "Multinomial",
    "Bernoulli",
}


def foldable(reader, node) -> bool:
    if node.op_type in _NEVER or node.domain not in ("", "ai.onnx"):
        return False
    ins = [n for n in node.input if n]
    if node.op_type in ("Shape", "Size") and ins:
        return (
            reader.values[ins[0]].shape is not None
            and all(d > 0 for d in reader.values[ins[0]].shape)
            or reader.values[ins[0]].is_const
        )
    return all(reader.values[n].is_const for n in ins)


def _shape_op(reader, node) -> list:
    v = reader.values[node.input[0]]
    shape = np.array(v.shape, np.int64)
    if node.op_type == "Size":
        return [np.array(int(np.prod(shape)), np.int64)]
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    rank = len(shape)
    start, end = int(attrs.get("start", 0)), int(attrs.get("end", rank))
    start = max(0, min(rank, start + rank if start < 0 else start))
    end = max(0, min(rank, end + rank if end < 0 else end))
    return [shape[start:end]]


def _evaluate(reader, node) -> list:
    from onnx.reference import ReferenceEvaluator

    feeds, inputs = {}, []
    for n in node.input:
        if n and n not in feeds:
            arr = np.asarray(reader.values[n].const)
            feeds[n] = arr
            inputs.append(helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(arr.dtype), list(arr.shape)))
    outputs = [helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in node.output if n]
    graph = helper.make_graph([node], "fold", inputs, outputs)
    model = helper.make_model(graph, opset_imports=list(reader.model.opset_import))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(model).run(None, feeds)


def _claimed_elements(reader, node):
    """How many elements the evaluator would allocate for an output whose size comes from operand *values*
    (ConstantOfShape, Expand, Tile, Range), or None: checked against the limits before anything is evaluated."""
    consts = [np.asarray(reader.values[n].const) if n else None for n in node.input]
    first = consts[0] if consts else None
    try:
        if node.op_type == "ConstantOfShape" and first is not None:
            return int(np.prod([max(int(d), 1) for d in first.reshape(-1)], dtype=object))
        if node.op_type in ("Expand", "Tile") and len(consts) > 1 and consts[1] is not None:
            return int(np.prod([max(abs(int(d)), 1) for d in consts[1].reshape(-1)], dtype=object)) * max(first.size, 1)
        if node.op_type == "Range" and len(consts) == 3 and all(c is not None and c.size == 1 for c in consts):
            start, limit, delta = (float(c.reshape(-1)[0]) for c in consts)
            return int(np.ceil((limit - start) / delta)) if delta and np.isfinite((limit - start) / delta) else None
    except (TypeError, ValueError, OverflowError):
        return None
    return None


def _check_sizes(reader, node, results=None) -> None:
    label = f"ONNX node '{node.name or node.op_type}' ({node.op_type})"
    claimed = _claimed_elements(reader, node) if results is None else None
    if claimed is not None and claimed * 8 > limits.active().max_tensor_bytes:
        raise CompileError(
            f"{label} has only constant inputs, but its result would have {claimed} elements, over "
            f"the limit of {limits.active().max_tensor_bytes} bytes per tensor (raise it with "
            "--max_tensor_bytes)."
        )
    names = [n for n in node.output if n]
    shapes = [reader.shapes.get(n) for n in names] if results is None else [np.shape(r) for r in results]
    for name, shape in zip(names, shapes):
        if shape is not None:
            limits.check_tensor("(folded constant)", name, shape, 8)


def fold_node(reader, node, idx: int) -> None:
    _check_sizes(reader, node)
    try:
        results = _shape_op(reader, node) if node.op_type in ("Shape", "Size") else _evaluate(reader, node)
        _check_sizes(reader, node, results)
    except CompileError:
        raise
    except Exception as e:
        raise CompileError(
            f"ONNX node '{node.name or node.op_type}' ({node.op_type}) has only constant inputs but "
            f"could not be evaluated at compile time ({type(e).__name__}: {e})."
        ) from None
    names = [n for n in node.output if n]
    for name, arr in zip(names, results):
        arr = np.asarray(arr)
        reader.values[name] = Value(name, tuple(int(d) for d in arr.shape), str(arr.dtype), const=arr)
        reader.shapes[name] = tuple(int(d) for d in arr.shape)
