"""SHAPE: the input's (static) shape as an int32 vector, written by one copy from a constant array. An int64
out_type is refused (no 64-bit type in the generated API)."""

import numpy as np

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_inputs


@register
class Shape(OpLowering):
    builtins = ("SHAPE",)
    dtypes = ("int32",)
    header = "aot/kernels/copy.h"

    def check(self, op):
        require_inputs(op, 1)
        if op.output.dtype != "int32":
            raise UnsupportedError(
                f"Operator {op.index} (SHAPE): output '{op.output.name}' is {op.output.dtype}; "
                "SHAPE is supported with out_type int32."
            )

    def prepare(self, op):
        op.kernel = "aot_copy"
        op.params = dict(shape=np.array([int(d) for d in op.input(0).shape], np.int32))

    def emit(self, op, ctx):
        shape = op.params["shape"]
        return [
            ctx.call(
                "aot_copy", [ctx.ptr(op.output), ctx.param(f"op{op.index}_shape", shape, "int32_t"), 4 * len(shape)]
            )
        ]
