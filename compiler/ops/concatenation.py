"""CONCATENATION lowering along any axis (int8, int16, float32, and raw int32).

Emitted as one strided byte copy per input.  TFLite Micro only accepts int8
inputs that share the output's scale and zero point (it concatenates bytes
without rescaling), so differing quantization is rejected rather than
rescaled: rescaling would not match the reference interpreter.  For int16 it
requires zero point 0 everywhere but copies values of differing scales
unchanged, which is not the concatenation of the real values; we refuse that
too rather than reproduce it.
"""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import ACTIVATIONS, require_quant, require_same_dtype, require_same_quant


def _positive_axis(op, rank: int) -> int:
    axis = int(op.options.get("Axis", 0))
    if not -rank <= axis < rank:
        raise CompileError(f"Operator {op.index} ({op.kind}): axis {axis} is out of range for rank {rank}.")
    return axis + rank if axis < 0 else axis


@register
class Concatenation(OpLowering):
    builtins = ("CONCATENATION",)
    dtypes = ("int8", "int16", "float32", "int32", "bool")
    header = "aot/kernels/concatenation.h"

    def check(self, op):
        super().check(op)
        if not op.inputs or any(t is None for t in op.inputs):
            raise CompileError(f"Operator {op.index} ({op.kind}) has a missing input.")
        out = op.output
        dtype = require_same_dtype(op, *op.inputs, out)
        act = ACTIVATIONS.get(op.options.get("FusedActivationFunction", 0), "?")
        if act != "NONE":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) has fused activation {act}; TFLite Micro "
                "supports CONCATENATION only without a fused activation."
            )
        rank = len(out.shape)
        if rank == 0:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' is a scalar; "
                "concatenation needs at least rank 1."
            )
        axis = _positive_axis(op, rank)
        total = 0
        for t in op.inputs:
            if len(t.shape) != rank or any(int(t.shape[d]) != int(out.shape[d]) for d in range(rank) if d != axis):
                raise CompileError(
                    f"Operator {op.index} ({op.kind}): input '{t.name}' has shape "
                    f"{list(t.shape)}, which does not match output shape {list(out.shape)} "
                    f"outside axis {axis}."
                )
            total += int(t.shape[axis])
        if total != int(out.shape[axis]):
            raise CompileError(
                f"Operator {op.index} ({op.kind}): the inputs add up to {total} along axis "
                f"{axis} but output '{out.name}' has {out.shape[axis]}."
            )
        if dtype in ("int8", "int16"):  # int32 (the audio front-end's raw energies) and float32 move as they are
            require_quant(op, out, "output")
            for i, t in enumerate(op.inputs):
                require_same_quant(
                    op,
                    t,
                    out,
                    f"input {i}",
                    "output",
                    f"CONCATENATION copies {dtype} values without rescaling (as TFLite Micro does), so every "
                    "input needs the output's scale and zero point; requantize the input first.",
                )

    def prepare(self, op):
        out = op.output
        axis = _positive_axis(op, len(out.shape))
        size = DTYPES[out.dtype].size
        outer = 1
        for d in out.shape[:axis]:
            outer *= int(d)
        inner = 1
        for d in out.shape[axis + 1 :]:
            inner *= int(d)
        row = int(out.shape[axis]) * inner * size
        pieces, offset = [], 0
        for t in op.inputs:
            chunk = int(t.shape[axis]) * inner * size
            pieces.append((chunk, offset))
            offset += chunk
        op.params = dict(outer=outer, row=row, pieces=pieces)
        op.kernel = "aot_concatenation_copy"

    def emit(self, op, ctx):
        p = op.params
        lines = []
        for t, (chunk, offset) in zip(op.inputs, p["pieces"]):
            if chunk == 0:
                continue
            lines.append(ctx.call(op.kernel, [ctx.ptr(op.output), ctx.ptr(t), p["outer"], chunk, p["row"], offset]))
        return lines
