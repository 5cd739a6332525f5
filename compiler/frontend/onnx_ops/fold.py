"""Constant folding: a node whose inputs are all constants is evaluated now, with the onnx package's
reference evaluator, and its outputs become constants (shape arithmetic, Constant nodes, initializer-only
subgraphs).  Shape/Size only need the static input shape.  DequantizeLinear is never folded: the
quantized weights it reads are what int8 operators need."""

import warnings

import numpy as np
import onnx
from onnx import helper

from ...errors import CompileError
from .values import Value

_NEVER = {"DequantizeLinear", "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
          "Multinomial", "Bernoulli"}


def foldable(reader, node) -> bool:
    if node.op_type in _NEVER or node.domain not in ("", "ai.onnx"):
        return False
    ins = [n for n in node.input if n]
    if node.op_type in ("Shape", "Size") and ins:
        return reader.values[ins[0]].shape is not None and all(d > 0 for d in reader.values[ins[0]].shape) \
            or reader.values[ins[0]].is_const
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
            inputs.append(helper.make_tensor_value_info(
                n, helper.np_dtype_to_tensor_dtype(arr.dtype), list(arr.shape)))
    outputs = [helper.make_tensor_value_info(n, onnx.TensorProto.UNDEFINED, None) for n in node.output if n]
    graph = helper.make_graph([node], "fold", inputs, outputs)
    model = helper.make_model(graph, opset_imports=list(reader.model.opset_import))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ReferenceEvaluator(model).run(None, feeds)


def fold_node(reader, node, idx: int) -> None:
    try:
        results = _shape_op(reader, node) if node.op_type in ("Shape", "Size") else _evaluate(reader, node)
    except Exception as e:
        raise CompileError(f"ONNX node '{node.name or node.op_type}' ({node.op_type}) has only constant inputs but "
                           f"could not be evaluated at compile time ({type(e).__name__}: {e}).") from None
    names = [n for n in node.output if n]
    for name, arr in zip(names, results):
        arr = np.asarray(arr)
        reader.values[name] = Value(name, tuple(int(d) for d in arr.shape), str(arr.dtype), const=arr)
        reader.shapes[name] = tuple(int(d) for d in arr.shape)
