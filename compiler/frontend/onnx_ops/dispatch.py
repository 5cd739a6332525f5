"""Chooses how one ONNX node is translated: folded constants aside, either
- data movement on dequantized views (Reshape, Transpose, MaxPool, ...): done on the int8 data, the result
  is again a dequantized view (exact: these ops commute with dequantization);
- a fused int8 operator: all run-time inputs are dequantized views and every output feeds one
  QuantizeLinear, so the node becomes one int8 IR operator with the QuantizeLinear's output quantization;
- otherwise float32 (dequantized views get a DEQUANTIZE first)."""

import numpy as np

from ...errors import UnsupportedError
from . import cast, conv, conv_transpose, elementwise, matmul, pool, quant, reduce, resize, shape_ops
from .context import NodeCtx, NotQuantizable, array_type_name
from .values import Value

REGISTRY = {}
for _module in (cast, conv, conv_transpose, elementwise, matmul, pool, quant, reduce, resize, shape_ops):
    REGISTRY.update(_module.CONVERTERS)


# Operators that take zero-size (no-element) run-time data, which a model input with a 0 dimension brings: views and
# splits of it (their kernels copy nothing), element-wise Abs / Neg / Mul on it (no element to compute) and the
# reductions, which over the empty set give their identity (reduce.py).  Other operators refuse it by name.
ZERO_SIZE_OPS = frozenset(
    "Reshape Flatten Squeeze Unsqueeze Identity Split Abs Neg Mul ReduceSum ReduceProd ReduceMax ReduceMin".split()
)


def supported_onnx_ops() -> list:
    return sorted(REGISTRY)


def _fused_outputs(reader, node):
    """[(QInfo, Q node index, onnx dtype)] per output if every output feeds exactly one QuantizeLinear."""
    result = []
    for name in node.output:
        users = reader.consumers(name)
        if not name or reader.is_graph_output(name) or len(users) != 1:
            return None
        q = reader.nodes[users[0]]
        if q.op_type != "QuantizeLinear" or users[0] in reader.skip or q.input[0] != name:
            return None
        info = quant.static_qinfo(reader, q)
        if info is None:
            return None
        result.append((info[0], users[0], info[1]))
    return result


def convert_node(reader, node, idx: int) -> None:
    entry = REGISTRY.get(node.op_type) if node.domain in ("", "ai.onnx") else None
    if entry is None:
        raise UnsupportedError(
            f"ONNX node '{node.name or node.op_type}' uses operator {node.op_type}"
            + (f" of domain '{node.domain}'" if node.domain not in ("", "ai.onnx") else "")
            + f", which is not supported. Supported ONNX operators are: {', '.join(supported_onnx_ops())}."
        )
    fn, mode = entry
    inputs = [reader.values[n] if n else None for n in node.input]
    for v in inputs:
        kind = np.asarray(v.const).dtype.kind if v is not None and v.is_const else "f"
        if kind not in "biuf":  # string (a Constant's value_string, a STRING initializer) or complex
            raise UnsupportedError(
                f"ONNX node '{node.name or node.op_type}' ({node.op_type}) reads the constant "
                f"'{v.name}' of element type {array_type_name(v.const)}; "
                "operators take numeric constants only (float, integer or bool)."
            )
    runtime = [v for v in inputs if v is not None and not v.is_const]
    empty = next((v for v in runtime if 0 in [int(d) for d in v.shape]), None)
    if empty is not None and node.op_type not in ZERO_SIZE_OPS:
        raise UnsupportedError(
            f"ONNX node '{node.name or node.op_type}' ({node.op_type}) reads '{empty.name}' of shape "
            f"{list(empty.shape)}, which holds no elements; zero-size data is supported by "
            f"{', '.join(sorted(ZERO_SIZE_OPS))} (a reduction over the empty set gives its identity, the others "
            "compile to no work)."
        )
    views = runtime and all(v.is_dq_view for v in runtime)
    if (
        mode == "move"
        and views
        and all(v.qinfo.same(runtime[0].qinfo) for v in runtime)
        and not any(v is not None and v.is_const and v.is_dq_view for v in inputs)
    ):
        srcs = [v.qsrc if v is not None and v.is_dq_view else v for v in inputs]
        fn(NodeCtx(reader, node, idx, srcs))
        for name in node.output:
            if name and name in reader.values:
                out = reader.values[name]
                reader.values[name] = Value(name, out.shape, "float32", qsrc=out, qinfo=out.qinfo)
        return
    if mode == "compute" and views:
        fused = _fused_outputs(reader, node)
        if fused is not None:
            try:
                fn(NodeCtx(reader, node, idx, inputs, quant_out=[f[0] for f in fused]))
            except NotQuantizable:
                pass
            else:
                for name, (_, qidx, onnx_dtype) in zip(node.output, fused):
                    out = reader.values[name]
                    qname = reader.nodes[qidx].output[0]
                    alias = Value(qname, out.shape, "int8", tensors=out.tensors, qinfo=out.qinfo)
                    alias.onnx_dtype = onnx_dtype
                    reader.values[qname] = alias
                    reader.skip.add(qidx)
                return
    fn(NodeCtx(reader, node, idx, inputs))
