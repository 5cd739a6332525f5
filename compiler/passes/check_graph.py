"""Validate model I/O and run every lowering's check()."""

from ..errors import UnsupportedError
from ..ir.dtypes import ACTIVATION_DTYPES


def check_graph(graph) -> None:
    for kind, tensors in (("input", graph.inputs), ("output", graph.outputs)):
        for t in tensors:
            if t.dtype not in ACTIVATION_DTYPES:
                raise UnsupportedError(
                    f"Model {kind} tensor '{t.name}' has element type {t.dtype}; model inputs "
                    f"and outputs must be one of: {', '.join(ACTIVATION_DTYPES)}."
                )
            if t.dtype == "int8" and (t.quant is None or t.quant.per_channel):
                raise UnsupportedError(
                    f"Model {kind} tensor '{t.name}' is int8 but has "
                    f"{'no' if t.quant is None else 'per-channel'} quantization parameters; "
                    "int8 model inputs/outputs need one scale and zero point."
                )
    for t in graph.inputs:
        if t.is_output:
            raise UnsupportedError(
                f"Tensor '{t.name}' is both a model input and a model output; pass-through "
                "models are not supported."
            )
        if t.is_const:
            raise UnsupportedError(f"Model input '{t.name}' is a constant tensor.")
    for op in graph.ops:
        for t in op.inputs:
            if t is not None and not t.is_const and not t.is_input and t.producer is None:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) reads tensor '{t.name}' which is neither "
                    "a constant, a model input nor produced by an earlier operator (variable/"
                    "stateful tensors are not supported)."
                )
        for t in op.outputs:
            if t.dtype not in ACTIVATION_DTYPES:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}) produces tensor '{t.name}' of type "
                    f"{t.dtype}; supported activation types are: {', '.join(ACTIVATION_DTYPES)}."
                )
        op.lowering.check(op)
    for t in graph.outputs:
        if t.producer is None:
            raise UnsupportedError(f"Model output '{t.name}' is not produced by any operator.")
