"""PRELU lowering (float32): x >= 0 ? x : alpha * x with alpha broadcast to the input (up to 4-D)."""

import numpy as np

from ._base import OpLowering, register
from ._common import broadcast_4d, require_inputs, require_same_dtype


@register
class Prelu(OpLowering):
    builtins = ("PRELU",)
    elementwise = True
    dtypes = ("float32",)
    header = "aot/kernels/prelu.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        require_same_dtype(op, op.input(0), op.input(1), op.output)
        broadcast_4d(op, op.input(0).shape, op.input(1).shape, op.output.shape)

    def prepare(self, op):
        dims, sa, sb = broadcast_4d(op, op.input(0).shape, op.input(1).shape, op.output.shape)
        op.params = dict(dims=np.array(dims, np.int32), sa=np.array(sa, np.int32), sb=np.array(sb, np.int32))
        op.kernel = "aot_prelu_f32"

    def emit(self, op, ctx):
        p = op.params
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output),
                                     ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                                     ctx.param(f"op{op.index}_strides1", p["sa"], "int32_t"),
                                     ctx.param(f"op{op.index}_strides2", p["sb"], "int32_t")])]
