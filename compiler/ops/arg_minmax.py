"""ARG_MAX / ARG_MIN over one constant axis: float32 or int8 input (stored values compared, as TFLite Micro does),
int32 indices out. An int64 output (TFLite's default output_type) is refused: no 64-bit type enters the generated
API; convert with output_type=tf.int32.  int8 over the last axis has kernels of its own on the DSP extension and Helium
(the kernel table chooses); everything else runs the portable kernel."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs
from .common.kernel import own_emit
from .kernel_table import Layer, select


@register
class ArgMinMax(OpLowering):
    builtins = ("ARG_MAX", "ARG_MIN")
    dtypes = ("int32",)
    header = "aot/kernels/arg_minmax.h"

    def check(self, op):
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        if out.dtype != "int32":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' is {out.dtype}; {op.kind} is supported with "
                "int32 indices (no 64-bit type enters the generated API; convert with output_type=tf.int32)."
            )
        if inp.dtype not in ("float32", "int8"):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on tensor '{inp.name}' of type {inp.dtype}; {op.kind} is "
                "supported for: float32, int8 (as in TFLite Micro)."
            )
        axis = self._axis(op)
        want = [int(d) for i, d in enumerate(inp.shape) if i != axis]
        if [int(d) for d in out.shape] != want:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape {list(out.shape)}; "
                f"reducing {list(inp.shape)} over axis {axis} gives {want}."
            )

    @staticmethod
    def _axis(op) -> int:
        axes = const_int_array(op, op.input(1), "the axis operand").reshape(-1)
        rank = len(op.input(0).shape)
        if axes.size != 1 or not -rank <= int(axes[0]) < rank:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): the axis operand must be one axis of the rank-{rank} "
                f"input, not {axes.tolist()}."
            )
        return int(axes[0]) % rank

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        axis = self._axis(op)
        p = dict(
            outer=int(np.prod(shape[:axis])),
            size=shape[axis],
            inner=int(np.prod(shape[axis + 1 :])),
            is_max=int(op.kind == "ARG_MAX"),
            in_dtype=op.input(0).dtype,
        )
        select(op, p, Layer())

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the int8 last-axis kernels (ops/kernels/arg_minmax.py)
        p = op.params
        return [
            ctx.call(
                op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["outer"], p["size"], p["inner"], p["is_max"]]
            )
        ]
