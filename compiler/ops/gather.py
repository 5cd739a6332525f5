"""GATHER lowering with constant indices (any element type: whole rows are copied).

The input is viewed as [outer, axis size, inner]; indices are normalised (negative counts from the end) and
range-checked here, so the kernel only copies.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype


def _axis(op) -> int:
    rank = len(op.input(0).shape)
    axis = int(op.options.get("Axis", 0))
    if not -rank <= axis < rank:
        raise CompileError(f"Operator {op.index} ({op.kind}): axis {axis} is out of range for rank {rank}.")
    return axis + rank if axis < 0 else axis


@register
class Gather(OpLowering):
    builtins = ("GATHER",)
    dtypes = ("int8", "float32", "int32")
    header = "aot/kernels/gather.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        require_same_dtype(op, inp, out)
        if op.input(1).data is None:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): indices '{op.input(1).name}' are computed at "
                "run time; only constant indices are supported."
            )
        if int(op.options.get("BatchDims", 0)) != 0:
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): batch_dims != 0 is not supported.")
        axis = _axis(op)
        idx = const_int_array(op, op.input(1), "indices")
        n = int(inp.shape[axis])
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise CompileError(
                f"Operator {op.index} ({op.kind}): an index is outside -{n}..{n - 1} for axis {axis} of '{inp.name}'."
            )
        want = list(inp.shape[:axis]) + list(idx.shape) + list(inp.shape[axis + 1 :])
        if [int(d) for d in want] != [int(d) for d in out.shape]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape {list(out.shape)}; expected {want}."
            )

    def prepare(self, op):
        inp = op.input(0)
        axis = _axis(op)
        n = int(inp.shape[axis])
        idx = const_int_array(op, op.input(1), "indices").reshape(-1)
        idx = np.where(idx < 0, idx + n, idx).astype(np.int32)
        outer = int(np.prod(inp.shape[:axis], dtype=np.int64))
        inner = int(np.prod(inp.shape[axis + 1 :], dtype=np.int64))
        op.params = dict(outer=outer, n=n, inner=inner, idx=idx)
        op.kernel = "aot_gather"

    def emit(self, op, ctx):
        p = op.params
        if op.output.num_elements == 0:
            return []
        return [
            ctx.call(
                "aot_gather",
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    DTYPES[op.output.dtype].size,
                    p["outer"],
                    p["n"],
                    p["inner"],
                    ctx.param(f"op{op.index}_indices", p["idx"], "int32_t"),
                    len(p["idx"]),
                ],
            )
        ]
