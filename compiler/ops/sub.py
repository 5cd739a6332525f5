"""SUB lowering with broadcasting (int8, float32): ADD's parameters with the second input subtracted, as in
TFLite's reference SUB."""

from ._base import register
from .add import Add


@register
class Sub(Add):
    builtins = ("SUB",)
    header = "aot/kernels/sub.h"

    def prepare(self, op):
        super().prepare(op)
        op.kernel = "aot_sub_s8" if op.output.dtype == "int8" else "aot_sub_f32"

    def emit(self, op, ctx):
        # ADD's argument list, emitted under ADD's kernel name, then renamed: one place defines the order.
        kernel = op.kernel
        op.kernel = kernel.replace("aot_sub", "aot_add")
        try:
            lines = super().emit(op, ctx)
        finally:
            op.kernel = kernel
        return [line.replace("aot_add_", "aot_sub_", 1) for line in lines]
