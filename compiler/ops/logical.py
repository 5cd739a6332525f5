"""LOGICAL_AND, LOGICAL_OR (two broadcasting bool operands) and LOGICAL_NOT, on bool tensors as in TFLite Micro."""

from ._base import OpLowering, register
from .common.checks import (
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    require_inputs,
    require_same_dtype,
    unary_check,
)


@register
class Logical(OpLowering):
    builtins = ("LOGICAL_AND", "LOGICAL_OR", "LOGICAL_NOT")
    dtypes = ("bool",)
    header = "aot/kernels/compare.h"

    def check(self, op):
        super().check(op)
        if op.kind == "LOGICAL_NOT":
            unary_check(op, self.dtypes)
            return
        require_inputs(op, 2)
        require_same_dtype(op, op.input(0), op.input(1), op.output)
        broadcast_4d(op, op.input(0).shape, op.input(1).shape, op.output.shape)

    def prepare(self, op):
        if op.kind == "LOGICAL_NOT":
            op.kernel, op.params = "aot_logical_not_bool", dict(size=op.output.num_elements)
            return
        op.kernel = "aot_logical_bool"
        op.params = dict(broadcast_params(op), code=0 if op.kind == "LOGICAL_AND" else 1)

    def emit(self, op, ctx):
        p = op.params
        if op.kind == "LOGICAL_NOT":
            return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]])]
        return [
            ctx.call(
                op.kernel,
                [p["code"]] + broadcast_args(op, ctx, p),
            )
        ]
