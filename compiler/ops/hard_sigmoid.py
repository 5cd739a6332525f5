"""HARD_SIGMOID lowering (float32; not a TFLite builtin, produced by the ONNX frontend):
max(0, min(1, alpha * x + beta))."""

from ._base import OpLowering, register
from .common.checks import unary_check


@register
class HardSigmoid(OpLowering):
    builtins = ("HARD_SIGMOID",)
    elementwise = True
    dtypes = ("float32",)
    header = "aot/kernels/hard_sigmoid.h"

    def check(self, op):
        super().check(op)
        unary_check(op, self.dtypes)

    def prepare(self, op):
        o = op.options
        op.params = dict(size=op.output.num_elements, alpha=float(o.get("Alpha", 0.2)), beta=float(o.get("Beta", 0.5)))
        op.kernel = "aot_hard_sigmoid_f32"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], ctx.f32(p["alpha"]), ctx.f32(p["beta"])],
            )
        ]
