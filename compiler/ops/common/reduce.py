"""The axes of a reduction (MEAN, SUM, REDUCE_MAX, REDUCE_MIN): a constant axis operand resolved against the input's
rank, the output shape it implies with or without keep_dims, and the 4-D form the kernels take (input shape padded
with 1s, a flag per reduced dimension)."""

import numpy as np

from ...errors import CompileError, UnsupportedError
from .checks import const_int_array, shape_4d


def _reduced_axes(op) -> list:
    inp = op.input(0)
    rank = len(inp.shape)
    axes = const_int_array(op, op.input(1), "the axis operand").reshape(-1)
    if axes.size == 0:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) has an empty axis list; {op.kind} is supported over one or more axes."
        )
    resolved = []
    for a in axes.tolist():
        if not -rank <= a < rank:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): axis {a} is out of range for input '{inp.name}' of rank {rank}."
            )
        a = a + rank if a < 0 else a
        if a not in resolved:
            resolved.append(a)
    return sorted(resolved)


def check_reduced_shape(op) -> list:
    """The reduced axes; CompileError when the output's shape is not the one they and keep_dims give."""
    inp, out = op.input(0), op.output
    shape_4d(op, inp.shape, f"input '{inp.name}'")
    axes = _reduced_axes(op)
    keep = bool(op.options.get("KeepDims", False))
    expected = [1 if d in axes else int(n) for d, n in enumerate(inp.shape)]
    if not keep:
        expected = [n for d, n in enumerate(expected) if d not in axes]
    if [int(d) for d in out.shape] != expected:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): output '{out.name}' has shape {list(out.shape)}; reducing "
            f"{list(inp.shape)} over axes {axes} with keep_dims={keep} gives {expected}."
        )
    return axes


def reduction_4d(op) -> tuple:
    """(input dims padded to 4-D, reduced flag per dimension, number of values per output) as int32 arrays."""
    inp = op.input(0)
    pad = 4 - len(inp.shape)
    reduced, count = [0] * 4, 1
    for a in _reduced_axes(op):
        reduced[a + pad] = 1
        count *= int(inp.shape[a])
    return np.array(shape_4d(op, inp.shape, "input"), np.int32), np.array(reduced, np.int32), count
