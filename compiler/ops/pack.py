"""PACK: N inputs of one shape stacked along a new axis, as strided byte copies (aot/kernels/concatenation.h): the
output seen as [outer, N * inner], input k fills bytes [k * inner, (k + 1) * inner) of every row. Quantized inputs
must carry the output's quantization (TFLite Micro copies stored values)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import require_same_dtype, require_same_quant


def _axis(op) -> int:
    rank = len(op.output.shape)
    axis = int(op.options.get("Axis", 0))
    if not -rank <= axis < rank:
        raise CompileError(f"Operator {op.index} (PACK): axis {axis} is out of range for the rank-{rank} output.")
    return axis % rank


@register
class Pack(OpLowering):
    builtins = ("PACK",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/concatenation.h"

    def check(self, op):
        super().check(op)
        if not op.inputs or any(t is None for t in op.inputs):
            raise CompileError(f"Operator {op.index} (PACK) has a missing input.")
        out = op.output
        dtype = require_same_dtype(op, *op.inputs, out)
        axis = _axis(op)
        shape = [int(d) for d in op.input(0).shape]
        want = shape[:axis] + [len(op.inputs)] + shape[axis:]
        for t in op.inputs:
            if [int(d) for d in t.shape] != shape:
                raise CompileError(
                    f"Operator {op.index} (PACK): input '{t.name}' has shape {list(t.shape)}; "
                    f"every input must have shape {shape}."
                )
        if [int(d) for d in out.shape] != want:
            raise CompileError(
                f"Operator {op.index} (PACK): output '{out.name}' has shape {list(out.shape)}; "
                f"stacking {len(op.inputs)} inputs of shape {shape} on axis {axis} gives {want}."
            )
        if dtype in ("int8", "int16"):
            for i, t in enumerate(op.inputs):
                require_same_quant(
                    op,
                    t,
                    out,
                    f"input {i}",
                    "output",
                    "PACK copies values without rescaling: every input needs the output's quantization.",
                )
        if dtype not in self.dtypes:
            raise UnsupportedError(f"Operator {op.index} (PACK) on {dtype}; supported: {', '.join(self.dtypes)}.")

    def prepare(self, op):
        axis = _axis(op)
        shape = [int(d) for d in op.input(0).shape]
        size = DTYPES[op.output.dtype].size
        outer, inner = int(np.prod(shape[:axis])), int(np.prod(shape[axis:])) * size
        op.kernel = "aot_concatenation_copy"
        op.params = dict(outer=outer, chunk=inner, row=inner * len(op.inputs))

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(op.kernel, [ctx.ptr(op.output), ctx.ptr(t), p["outer"], p["chunk"], p["row"], k * p["chunk"]])
            for k, t in enumerate(op.inputs)
            if p["chunk"]
        ]
