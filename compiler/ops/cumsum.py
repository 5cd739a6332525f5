"""CUMSUM in float32 along one constant axis, with TFLite's exclusive and reverse options. The int8 / int16 forms
(TFLite Micro rescales to a common left-shifted scale) are refused by name."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from ._common import const_int_array, require_inputs, require_same_dtype, require_same_shape


@register
class Cumsum(OpLowering):
    builtins = ("CUMSUM",)
    dtypes = ("float32", "int8", "int16")
    header = "aot/kernels/cumsum.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        dtype = require_same_dtype(op, op.input(0), op.output)
        require_same_shape(op, op.input(0), op.output)
        if dtype != "float32":
            raise UnsupportedError(
                f"Operator {op.index} (CUMSUM) on {dtype} tensor '{op.input(0).name}': the "
                "quantized CUMSUM is not supported yet; CUMSUM is supported for float32."
            )
        self._axis(op)

    @staticmethod
    def _axis(op) -> int:
        rank = len(op.input(0).shape)
        a = const_int_array(op, op.input(1), "the axis operand").reshape(-1)
        if a.size != 1 or not -rank <= int(a[0]) < rank:
            raise CompileError(f"Operator {op.index} (CUMSUM): axis {a.tolist()} for a rank-{rank} input.")
        return int(a[0]) % rank

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        axis = self._axis(op)
        op.kernel = "aot_cumsum_f32"
        op.params = dict(
            outer=int(np.prod(shape[:axis])),
            n=shape[axis],
            inner=int(np.prod(shape[axis + 1 :])),
            exclusive=int(bool(op.options.get("Exclusive", False))),
            reverse=int(bool(op.options.get("Reverse", False))),
        )

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    p["outer"],
                    p["n"],
                    p["inner"],
                    p["exclusive"],
                    p["reverse"],
                ],
            )
        ]
