"""LEAKY_RELU lowering (float32): x >= 0 ? x : alpha * x."""

from ._base import OpLowering, register
from ._common import unary_check


@register
class LeakyRelu(OpLowering):
    builtins = ("LEAKY_RELU",)
    elementwise = True
    dtypes = ("float32",)
    header = "aot/kernels/leaky_relu.h"

    def check(self, op):
        super().check(op)
        unary_check(op, self.dtypes)

    def prepare(self, op):
        op.params = dict(size=op.output.num_elements, alpha=float(op.options.get("Alpha", 0.0)))
        op.kernel = "aot_leaky_relu_f32"

    def emit(self, op, ctx):
        p = op.params
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], ctx.f32(p["alpha"])])]
